import Foundation
import Statecharts
import StatechartsTesting
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Each escaping function of `Escaping`, on 100,000 random strings (combining marks after quotes,
/// controls, bidirectional controls, separators, noncharacters, astral scalars), read back by a
/// real parser of its language: `XMLParser`, Graphviz's `dot`, `swiftc` (compiled and run), and
/// `JSONSerialization`; the terminal's by the scalars left in its output. Each test runs on a thread
/// of its own (`.ownThread`): they compute for seconds.
@Suite(.ownThread) struct EscapingPropertyTests {
    static let count = 100_000

    @Test("XML: XMLParser reads every attribute and every text back as written, invalid scalars as U+FFFD")
    func xml() throws {
        let problems = try Self.checkXML()
        #expect(problems.isEmpty, "\(problems.prefix(20))")
    }

    /// What ``xml()`` finds wrong, checked on a thread of its own.
    static func checkXML() throws -> [String] {
        var problems: [String] = []
        var random = RandomText(seed: 1)
        let strings = random.strings(count)
        // Documents of 10,000 elements: libxml2 refuses a document of more than 10 MB unless told
        // it is huge.
        for start in stride(from: 0, to: strings.count, by: 10_000) {
            let part = Array(strings[start..<min(start + 10_000, strings.count)])
            var document = "<r>"
            for text in part {
                document += "\n<e a=\"\(Escaping.xml(text))\">\(Escaping.xml(text, in: .text))</e>"
            }
            document += "</r>"
            let reader = ElementReader()
            let parser = XMLParser(data: Data(document.utf8))
            parser.delegate = reader
            guard parser.parse(), reader.elements.count == part.count else {
                problems.append(
                    "line \(parser.lineNumber): \(firstUnreadable(part).map(\.debugDescription) ?? "no single element")"
                )
                continue
            }
            for (text, element) in zip(part, reader.elements) {
                let expected = String(
                    String.UnicodeScalarView(text.unicodeScalars.map { Escaping.isXMLCharacter($0) ? $0 : "\u{FFFD}" }))
                if element.a.scalarValues != expected.scalarValues || element.text.scalarValues != expected.scalarValues
                {
                    problems.append(text.debugDescription)
                }
            }
            // What a terminal would obey is written as a reference.
            if document.unicodeScalars.contains(where: { $0 != "\n" && $0 != "\t" && Escaping.isInvisibleInSource($0) })
            {
                problems.append("a control, separator or bidirectional scalar raw in the document")
            }
        }
        return problems
    }

    /// The first string whose element XMLParser cannot read alone.
    static func firstUnreadable(_ strings: [String]) -> String? {
        strings.first { text in
            let one = "<e a=\"\(Escaping.xml(text))\">\(Escaping.xml(text, in: .text))</e>"
            return !XMLParser(data: Data(one.utf8)).parse()
        }
    }

    @Test("JSON: JSONSerialization reads every string back as written, and no control scalar is left raw")
    func json() throws {
        let problems = try Self.checkJSON()
        #expect(problems.isEmpty, "\(problems.prefix(20))")
    }

    /// What ``json()`` finds wrong, checked on a thread of its own.
    static func checkJSON() throws -> [String] {
        var problems: [String] = []
        var random = RandomText(seed: 2)
        let strings = random.strings(count)
        let text = "[" + strings.map(Escaping.json).joined(separator: ",") + "]"
        let read = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String] ?? []
        if read.count != strings.count { problems.append("read \(read.count) strings") }
        for (written, back) in zip(strings, read) where back.scalarValues != written.scalarValues {
            problems.append(written.debugDescription)
        }
        if text.unicodeScalars.contains(where: Escaping.isInvisibleInSource) {
            problems.append("a control scalar raw in the JSON")
        }
        // JSON from an encoder, with what it leaves raw escaped.
        let encoded = String(decoding: try JSONEncoder().encode(strings), as: UTF8.self)
        let escaped = Escaping.jsonText(encoded)
        if escaped.unicodeScalars.contains(where: Escaping.isInvisibleInSource) {
            problems.append("a control scalar raw in the encoder's JSON")
        }
        let again = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String] ?? []
        if again.map(\.scalarValues) != strings.map(\.scalarValues) {
            problems.append("the encoder's JSON, escaped, reads back otherwise")
        }
        return problems
    }

    @Test(
        "DOT: dot reads every node name and label back, after Graphviz's own escapes, as written",
        .enabled(if: ExternalTool.find("dot") != nil, "Graphviz's dot is not installed (apt-get install graphviz)"))
    func dot() async throws {
        var random = RandomText(seed: 3)
        let strings = random.strings(Self.count)
        var graph = "digraph \(Escaping.dot("g\"\u{301}")) {\n"
        for (index, text) in strings.enumerated() {
            // Each node's name is unique (its index first), its label the string itself.
            graph += "  \(Escaping.dot("\(index)|" + text)) [label=\(Escaping.dot(text)), pos=\"0,0\"];\n"
        }
        graph += "}\n"
        // neato with -n lays out nothing: dot's parser is what is tested.
        let output = try await ExternalTool.run("dot", ["-Kneato", "-n", "-Tjson"], input: Data(graph.utf8))
        let json = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let objects = try #require(json["objects"] as? [[String: Any]])
        try #require(objects.count == strings.count, "dot read \(objects.count) nodes")
        for (index, text) in strings.enumerated() {
            let object = objects[index]
            let expected = Self.dotReadBack(text)
            let name = try #require(object["name"] as? String)
            let label = try #require(object["label"] as? String)
            #expect(Self.unescapeGraphviz(name).scalarValues == ("\(index)|" + expected).scalarValues)
            #expect(Self.unescapeGraphviz(label).scalarValues == expected.scalarValues, "\(text.debugDescription)")
            // No attribute but the label and those dot adds itself.
            #expect(!object.keys.contains { ["URL", "href", "id", "class", "style", "tooltip"].contains($0) })
        }
    }

    /// What `Escaping.dot` promises dot reads back: line breaks as line feeds, the scalars a
    /// picture cannot show as U+FFFD.
    static func dotReadBack(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar -> Unicode.Scalar in
                    if scalar == "\r" { return "\n" }
                    if scalar != "\n" && scalar != "\t" && Escaping.isInvisibleInSource(scalar) { return "\u{FFFD}" }
                    return scalar
                }))
    }

    /// Graphviz's escapes in a string it read (`\\` and `\n`), as a label shows them.
    static func unescapeGraphviz(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                result.append(scalar == "n" ? "\n" : scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    @Test(
        "Swift: swiftc compiles every literal and comment, and the program prints every string back as written",
        .enabled(if: ExternalTool.find("swiftc") != nil, "swiftc is not on PATH"))
    func swift() async throws {
        var random = RandomText(seed: 4)
        let strings = random.strings(Self.count)
        let chunk = 5000
        var source = "// \(Escaping.swiftComment("a file \"\u{301}\n*/ named\r\u{2028}oddly.scxml"))\n"
        for start in stride(from: 0, to: strings.count, by: chunk) {
            source += "func chunk\(start)() -> [String] {\n    [\n"
            for text in strings[start..<min(start + chunk, strings.count)] {
                source +=
                    "        /* \(Escaping.swiftComment(text)) */ \(Escaping.swiftLiteral(text)),  // \(Escaping.swiftComment(text))\n"
            }
            source += "    ]\n}\n"
        }
        source += "let all = ["
        source += stride(from: 0, to: strings.count, by: chunk).map { "chunk\($0)()" }.joined(separator: ", ")
        source += "].flatMap { $0 }\n"
        source +=
            "for text in all { print(text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: \" \")) }\n"
        // Nothing a terminal or an editor would obey, nor a line break inside a literal or comment.
        #expect(!source.unicodeScalars.contains { $0 != "\n" && Escaping.isInvisibleInSource($0) })

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("escaping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let program = folder.appendingPathComponent("main")
        _ = try await ExternalTool.run("swiftc", ["-Onone", file.path, "-o", program.path])
        let output = try await ExternalTool.run(program.path, [])
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == strings.count + 1, "the program printed \(lines.count - 1) strings")
        for (text, line) in zip(strings, lines) {
            let expected = text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
            #expect(String(line) == expected, "\(text.debugDescription)")
        }
    }

    @Test("Terminal: no control, separator or bidirectional scalar is left, and printable text is kept as it is")
    func terminal() {
        let problems = Self.checkTerminal()
        #expect(problems.isEmpty, "\(problems.prefix(20))")
        #expect(Escaping.terminal("a\u{1B}[31mb\u{9B}c\u{202E}d\re") == "a\\u{1B}[31mb\\u{9B}c\\u{202E}d\\u{D}e")
    }

    /// What ``terminal()`` finds wrong, checked on a thread of its own.
    static func checkTerminal() -> [String] {
        var problems: [String] = []
        var random = RandomText(seed: 5)
        for text in random.strings(count) {
            let line = Escaping.terminal(text)
            let lines = Escaping.terminal(text, keepingLineBreaks: true)
            let kept =
                !line.unicodeScalars.contains { $0 != "\t" && Escaping.isInvisibleInSource($0) }
                && !lines.unicodeScalars.contains { $0 != "\t" && $0 != "\n" && Escaping.isInvisibleInSource($0) }
                && lines.unicodeScalars.filter { $0 == "\n" }.count == text.unicodeScalars.filter { $0 == "\n" }.count
            let printable = !text.unicodeScalars.contains { $0 != "\t" && Escaping.isInvisibleInSource($0) }
            if !kept || (printable && line.scalarValues != text.scalarValues) { problems.append(text.debugDescription) }
        }
        return problems
    }

    @Test(
        "GitHub Actions: the runner's own parser reads every message and property back as the terminal shows them",
        .enabled(
            if: ExternalTool.find("mcs") != nil && ExternalTool.find("mono") != nil,
            "Mono's mcs is not installed (apt-get install mono-mcs): it compiles the runner's parser"))
    func workflowCommands() async throws {
        let parser = try await Self.buildRunnerParser()
        var random = RandomText(seed: 6)
        // Now and then, what the runner reads as an escape or a separator, written raw.
        let tricky = ["%0A", "%25", "%3A%2C", "::", "=", "a,b=c", " ", "\u{A0}", "%"]
        let strings = random.strings(Self.count).enumerated().map { index, text in
            index % 4 == 0 ? tricky[index / 4 % tricky.count] + text + tricky[index % tricky.count] : text
        }
        var input = ""
        for text in strings {
            // `title` last: the runner trims the end of the last property.
            input += "::error file=\(Escaping.workflowCommand(text, as: .property)),line=1,"
            input += "title=\(Escaping.workflowCommand(text, as: .property))::"
            input += Escaping.workflowCommand(text, as: .message) + "\n"
        }
        let scalars = input.unicodeScalars
        #expect(scalars.filter { $0 == "\n" }.count == strings.count && !scalars.contains("\r"))
        #expect(!scalars.contains { $0 != "\n" && $0 != "\t" && Escaping.isInvisibleInSource($0) })
        let output = try await ExternalTool.run("mono", [parser.path], input: Data(input.utf8))
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == strings.count + 1, "the runner's parser wrote \(lines.count - 1) lines")
        var problems: [String] = []
        for (text, line) in zip(strings, lines) {
            let property = Self.propertyReadBack(text)
            // An empty property is one the runner drops: the writer leaves it out.
            let properties = property.isEmpty ? ["line=1"] : ["file=\(property)", "line=1", "title=\(property)"]
            let expected = ["error"] + properties + [Escaping.terminal(text, keepingLineBreaks: true)]
            if Self.decodeRunnerLine(line) != expected { problems.append(text.debugDescription) }
        }
        #expect(problems.count == 0, "read back otherwise: \(problems.prefix(20))")
    }

    /// The runner's `ActionCommand.cs` with the oracle's `Program.cs`, compiled by Mono's `mcs`
    /// into a temporary folder (see `Tests/Oracles/GitHubActionsRunner/README.md`).
    static func buildRunnerParser() async throws -> URL {
        let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Oracles/GitHubActionsRunner")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-parser-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // mcs knows no target-typed `new(…)`: the file's one use of it, written out in full.
        let targetTyped = "_properties = new(StringComparer.OrdinalIgnoreCase);"
        let source = try String(contentsOf: oracle.appendingPathComponent("ActionCommand.cs"), encoding: .utf8)
        try #require(source.contains(targetTyped), "ActionCommand.cs changed: the rewrite for mcs no longer applies")
        let rewritten = source.replacingOccurrences(
            of: targetTyped, with: "_properties = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);")
        try rewritten.write(to: folder.appendingPathComponent("ActionCommand.cs"), atomically: true, encoding: .utf8)
        let executable = folder.appendingPathComponent("parse.exe")
        _ = try await ExternalTool.run(
            "mcs",
            [
                "-nologo", "-out:\(executable.path)", folder.appendingPathComponent("ActionCommand.cs").path,
                oracle.appendingPathComponent("ArgUtil.cs").path, oracle.appendingPathComponent("Program.cs").path,
            ])
        return executable
    }

    /// What `Escaping.workflowCommand(_:as: .property)` promises the runner reads back: the text
    /// as the terminal shows it on one line, with a first `=` and a last white space scalar shown
    /// as `\u{HEX}`.
    static func propertyReadBack(_ text: String) -> String {
        var scalars = Array(Escaping.terminal(text).unicodeScalars)
        var suffix = ""
        if let last = scalars.last, last.properties.isWhitespace {
            suffix = "\\u{" + String(last.value, radix: 16, uppercase: true) + "}"
            scalars.removeLast()
        }
        var prefix = ""
        if scalars.first == "=" {
            prefix = "\\u{3D}"
            scalars.removeFirst()
        }
        return prefix + String(String.UnicodeScalarView(scalars)) + suffix
    }

    /// A line of the oracle's output: the command, `KEY=VALUE` for each property, and the data,
    /// with the values decoded from Base64.
    static func decodeRunnerLine(_ line: Substring) -> [String] {
        func decoded(_ base64: Substring) -> String {
            String(decoding: Data(base64Encoded: String(base64)) ?? Data("?".utf8), as: UTF8.self)
        }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 2, let command = fields.first, let data = fields.last else { return [String(line)] }
        let properties = fields.dropFirst().dropLast().map { field -> String in
            guard let equals = field.firstIndex(of: "=") else { return String(field) }
            return String(field[..<equals]) + "=" + decoded(field[field.index(after: equals)...])
        }
        return [String(command)] + properties + [decoded(data)]
    }

    @Test("A quote followed by a combining mark is escaped in every language")
    func combiningMarks() {
        let text = "\"\u{301} onload=\"alert(1)"
        #expect(!Escaping.xml(text).contains("\""))
        #expect(!Escaping.xml("<\u{301}", in: .text).unicodeScalars.contains("<"))
        #expect(Escaping.dot(text).unicodeScalars.filter { $0 == "\"" }.count == 4)
        #expect(Escaping.swiftLiteral(text) == "\"\\\"\u{301} onload=\\\"alert(1)\"")
        #expect(Escaping.json(text) == "\"\\\"\u{301} onload=\\\"alert(1)\"")
    }
}

/// The elements `<e a="…">text</e>` of a document, as XMLParser reports them.
private final class ElementReader: NSObject, XMLParserDelegate {
    struct Element {
        var a = ""
        var text = ""
    }

    var elements: [Element] = []
    private var inside = false

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard elementName == "e" else { return }
        elements.append(Element(a: attributes["a"] ?? ""))
        inside = true
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        inside = false
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard inside, !elements.isEmpty else { return }
        elements[elements.count - 1].text += string
    }
}
