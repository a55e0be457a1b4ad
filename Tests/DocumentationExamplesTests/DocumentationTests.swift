import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// Every Swift example of the README and the documentation catalogs is code these tests compile and
/// run, as written, in this target and, through symbolic links, in `MainActorDefaultTests`, which is
/// compiled as an app of Xcode 26 is (main-actor default isolation).
@Suite(.ownThread) struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folders whose Swift files hold the examples.
    static let exampleFolders = ["Tests/DocumentationExamplesTests", "Examples/Flows"]

    /// Folders whose Swift files the documents quote but no test target compiles: the manifests of
    /// the package that uses the build plugin and of an app's package that adds this one (CI builds
    /// both: Scripts/generated-player.sh, Scripts/client-pins.sh).
    static let quotedFolders = ["Examples/GeneratedPlayer", "Examples/Client"]

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appending(path: path), encoding: .utf8)
    }

    /// The README and every article of the catalogs.
    static func documents() throws -> [String] {
        let sources = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "Sources").path)
        var documents = ["README.md"]
        for module in sources.sorted() {
            let folder = "Sources/\(module)"
            guard
                let catalog = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: folder).path)
                    .first(where: { $0.hasSuffix(".docc") })
            else { continue }
            let articles = try FileManager.default.contentsOfDirectory(
                atPath: root.appending(path: "\(folder)/\(catalog)").path)
            documents += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\(catalog)/\($0)" }
        }
        return documents
    }

    /// The Swift blocks of a document, each with its number.
    static func swiftBlocks(of text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current.map { $0.joined(separator: "\n") } ?? "")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The Swift files of the example folders (and, with `quoted`, of the quoted ones), by path.
    static func exampleSources(quoted: Bool = false) throws -> [String: String] {
        var sources: [String: String] = [:]
        for folder in exampleFolders + (quoted ? quotedFolders : []) {
            for file in try FileManager.default.contentsOfDirectory(atPath: root.appending(path: folder).path)
            where file.hasSuffix(".swift") {
                sources["\(folder)/\(file)"] = try read("\(folder)/\(file)")
            }
        }
        return sources
    }

    /// The lines of `source`, trimmed: what an example's imports are looked up in.
    static func lines(of source: String) -> Set<String> {
        Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// Whether `source`, whose trimmed lines are `sourceLines` (read once for all blocks),
    /// contains `code` at some indentation, and imports the modules it imports.
    static func source(_ source: String, lines sourceLines: Set<String>, contains code: String) -> Bool {
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var imports: [String] = []
        while let first = lines.first, first.hasPrefix("import ") || (first.isEmpty && !imports.isEmpty) {
            if !first.isEmpty { imports.append(first) }
            lines.removeFirst()
        }
        guard imports.allSatisfy({ sourceLines.contains($0) }) else { return false }
        if lines.isEmpty { return true }
        return (0...6).contains { level in
            let prefix = String(repeating: " ", count: level * 4)
            let indented = lines.map { $0.isEmpty ? "" : prefix + $0 }.joined(separator: "\n")
            return source.contains(indented)
        }
    }

    @Test("every Swift example of the README and the catalogs is in an example test, as written")
    func everyExampleIsTested() throws {
        let sources = try Self.exampleSources(quoted: true).values.map { ($0, Self.lines(of: $0)) }
        var count = 0
        for document in try Self.documents() {
            for (index, block) in Self.swiftBlocks(of: try Self.read(document)).enumerated() {
                count += 1
                let found = sources.contains { Self.source($0.0, lines: $0.1, contains: block) }
                #expect(found, "the Swift block \(index + 1) of \(document) is in no example test:\n\(block)")
            }
        }
        #expect(count >= 30, "the documents have their examples")
    }

    @Test("every example file is also compiled with main-actor default isolation, through a link")
    func everyExampleIsLinked() throws {
        let linked = Self.root.appending(path: "Tests/MainActorDefaultTests")
        for path in try Self.exampleSources().keys.sorted() {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let link = linked.appending(path: name).path
            let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: link)
            #expect(
                destination.map { URL(fileURLWithPath: linked.path + "/" + $0).resolvingSymlinksInPath().path }
                    == Self.root.appending(path: path).resolvingSymlinksInPath().path,
                "Tests/MainActorDefaultTests/\(name) links to \(path)")
        }
    }

    @Test("each example article shows the picture its chart draws of itself, and it is current")
    func articlePictures() throws {
        for (article, picture, svg) in [
            ("ExampleGameFlow.md", "example-game-flow.svg", try makeGameChart().svg()),
            ("ExampleMediaPlayer.md", "example-media-player.svg", try makePlayerChart().svg()),
        ] {
            let text = try Self.read("Sources/Statecharts/Statecharts.docc/\(article)")
            #expect(text.contains("](\(picture))"), "\(article) shows its picture")
            let file = Self.root.appending(path: "Sources/Statecharts/Statecharts.docc/Resources/\(picture)")
            #expect(try CheckedInFile.isCurrent(svg, at: file), "\(picture) is stale: run Scripts/pictures.sh")
        }
    }

    @Test("the README shows the picture of the media player its first command runs, and it is current")
    func readmePicture() throws {
        let readme = try Self.read("README.md")
        #expect(readme.contains("](Examples/media-player.svg)"))
        let document = try SCXMLChart.load(contentsOf: Self.root.appending(path: "Examples/media-player.scxml"))
        #expect(
            try CheckedInFile.isCurrent(
                document.statechart.svg(), at: Self.root.appending(path: "Examples/media-player.svg")),
            "Examples/media-player.svg is stale: run Scripts/pictures.sh")
    }

    @Test("no catalog shows a chart as Mermaid source, which DocC does not draw")
    func noMermaidInCatalogs() throws {
        let sources = Self.root.appending(path: "Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap {
            $0 as? URL
        }
        for file in files ?? [] where file.pathExtension == "md" {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("```mermaid"), "\(file.lastPathComponent) has a mermaid block")
        }
        #expect(!(try Self.read("README.md")).contains("```mermaid"))
    }

    @Test("the README shows the output its first example prints")
    func readmeOutput() throws {
        let readme = try Self.read("README.md")
        #expect(readme.contains("```\n" + ReadmeTests.expectedOutput + "\n```"))
    }
}
