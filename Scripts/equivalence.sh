#!/usr/bin/env bash
# Generated charts against the interpreter. Generates Swift (`statechart generate`) for every
# document the generator takes among the W3C tests, the SCION tests (../shared/conformance) and the
# bundled examples; compiles them all in one test target of a package made in .build-equivalence/;
# and runs each beside the interpreter running its document, with the same events and virtual
# time, comparing the active states after every step (InterpreterComparison). W3C tests that need
# no event I/O processor must also end, generated, in their state pass. Every generated file must pass `swift format lint`.
#
# Usage: Scripts/equivalence.sh
# Prints one line per suite: documents, generated, compiled, identical, and the reasons for the
# documents the generator refused (each a problem it reported, with file:line:column).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${STATECHARTS_SHARED:-$root/../shared}/conformance"
work="$root/.build-equivalence"
if [ ! -d "$shared" ]; then
  echo "equivalence: $shared is missing, so only the bundled examples are generated and compared" >&2
fi
swift build --enable-all-traits --product statechart >&2
tool="$(swift build --enable-all-traits --show-bin-path)/statechart"
rm -rf "$work/Package.swift" "$work/Tests"
mkdir -p "$work/Tests/EquivalenceTests/Generated"

python3 - "$root" "$shared" "$work" "$tool" <<'PY'
import glob, json, os, re, subprocess, sys

root, shared, work, tool = sys.argv[1:5]
generated_dir = os.path.join(work, "Tests/EquivalenceTests/Generated")
cases, summary = [], []

def swift_string(text):
    return json.dumps(text)

def generate(suite, name, path, steps, expect_pass):
    type_name = "T_" + re.sub(r"[^A-Za-z0-9]", "_", suite + "_" + name)
    out = os.path.join(generated_dir, type_name + ".swift")
    result = subprocess.run([tool, "generate", path, "--name", type_name, "-o", out], capture_output=True, text=True)
    if result.returncode != 0:
        first = next((line for line in result.stderr.splitlines() if ": error: " in line), result.stderr.strip())
        return first.split(": error: ", 1)[-1]
    form = "document" if "static var document: SCXMLDocument" in open(out).read() else "compiled"
    cases.append((suite, name, type_name, path, steps, expect_pass, form))
    return None

def run_suite(suite, documents):
    refused = {}
    total = 0
    for name, path, steps, expect_pass in documents:
        total += 1
        reason = generate(suite, name, path, steps, expect_pass)
        if reason:
            if "cannot invoke a document read from a path" in reason:
                key = "<invoke> of a document read from a path when the app runs"
            else:
                key = reason
            refused[key] = refused.get(key, 0) + 1
    summary.append((suite, total, total - sum(refused.values()), refused))

w3c = []
table = os.path.join(shared, "w3c/categories.tsv")
if os.path.exists(table):
    for line in open(table).read().splitlines()[1:]:
        number, conformance, manual, category, file, features = line.split("\t")
        if manual == "true" or category.startswith("n/a"):
            continue
        # Tests of category d need event I/O processors or other sessions: compared, not required to pass.
        # A test of several documents lists its main one first.
        w3c.append(("test" + number, os.path.join(shared, "w3c", file.split()[0]), [], category != "d"))
run_suite("w3c", w3c)

scion = []
for path in sorted(glob.glob(os.path.join(shared, "scion/*/*.scxml"))):
    expectations = path[:-len(".scxml")] + ".json"
    if not os.path.exists(expectations):
        continue
    steps = []
    for event in json.load(open(expectations)).get("events", []):
        if event.get("after"):
            steps.append(("wait", event["after"]))
        steps.append(("event", event["event"]["name"]))
    name = os.path.relpath(path, os.path.join(shared, "scion"))[:-len(".scxml")]
    scion.append((name, path, steps, False))
run_suite("scion", scion)

examples = [(os.path.basename(p)[:-len(".scxml")], p, [], False) for p in sorted(glob.glob(os.path.join(root, "Examples/*.scxml")))]
run_suite("examples", examples)

lines = ["import Statecharts", "import StatechartsSCXML", "import StatechartsTesting", "",
         "/// Every generated chart, with its document and the steps to compare.", "let cases: [EquivalenceCase] = ["]
for suite, name, type_name, path, steps, expect_pass, form in cases:
    step_code = ", ".join(
        f".wait(.milliseconds({value}))" if kind == "wait" else f".event({swift_string(value)})" for kind, value in steps)
    lines.append(
        f"    EquivalenceCase(suite: {swift_string(suite)}, name: {swift_string(name)}, document: {swift_string(path)}, "
        f"steps: [{step_code}], mustPass: {'true' if expect_pass else 'false'}, form: .{form}) {{ document, steps in")
    if form == "compiled":
        lines.append(f"        InterpreterComparison.compare(try {type_name}.chart(), with: document, steps: steps)")
    else:
        lines.append(f"        try sameStructure({type_name}.document, as: document.document, name: {swift_string(name)})")
        lines.append(f"        return InterpreterComparison.compare(")
        lines.append(f"            try {type_name}.chart(dataModels: BuiltDataModels.all), with: document, steps: steps)")
    lines.append("    },")
lines.append("]")
open(os.path.join(work, "Tests/EquivalenceTests/Cases.swift"), "w").write("\n".join(lines) + "\n")

report = []
for suite, total, generated, refused in summary:
    report.append(f"{suite}\t{total}\t{generated}")
    for reason, count in sorted(refused.items(), key=lambda item: -item[1]):
        report.append(f"{suite}-refused\t{count}\t{reason}")
open(os.path.join(work, "generation.tsv"), "w").write("\n".join(report) + "\n")
PY

package=$(basename "$root")
cat > "$work/Package.swift" <<EOF
// swift-tools-version: 6.2
// Made by Scripts/equivalence.sh: the generated charts of the conformance suites, in one test target.
import PackageDescription

let package = Package(
    name: "Equivalence",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$root")],
    targets: [
        .testTarget(
            name: "EquivalenceTests",
            dependencies: [
                .product(name: "Statecharts", package: "$package"),
                .product(name: "StatechartsSCXML", package: "$package"),
                .product(name: "StatechartsTesting", package: "$package"),
            ])
    ]
)
EOF
cat > "$work/Tests/EquivalenceTests/EquivalenceTests.swift" <<'EOF'
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// A generated chart, its document, and what to compare them on.
struct EquivalenceCase: Sendable {
    enum Form: String, Sendable { case compiled, document }

    var suite: String
    var name: String
    var document: String
    var steps: [InterpreterComparison.Step]
    var mustPass: Bool
    var form: Form
    var compare: @Sendable (SCXMLChart, [InterpreterComparison.Step]) throws -> InterpreterComparison.Result

    init(
        suite: String, name: String, document: String, steps: [InterpreterComparison.Step], mustPass: Bool, form: Form,
        compare: @escaping @Sendable (SCXMLChart, [InterpreterComparison.Step]) throws -> InterpreterComparison.Result
    ) {
        self.suite = suite
        self.name = name
        self.document = document
        self.steps = steps
        self.mustPass = mustPass
        self.form = form
        self.compare = compare
    }
}

struct DifferentStructure: Error, CustomStringConvertible {
    var description: String
}

/// Whether a document generated as Swift values is the document read from its file, element for
/// element (compared as SCXMLWriter writes them, which leaves positions out).
func sameStructure(_ generated: SCXMLDocument, as read: SCXMLDocument, name: String) throws {
    let written = SCXMLWriter.write(generated)
    guard written == SCXMLWriter.write(read) else {
        throw DifferentStructure(description: "\(name): the generated document differs from its file")
    }
}

@Test func everyGeneratedChartRunsAsTheInterpreterRunsItsDocument() throws {
    var identical: [String: Int] = [:]
    var passed: [String: Int] = [:]
    var comparisons = 0
    var outside = 0
    var notComparable: [String: Int] = [:]
    for item in cases {
        // The interpreter with every data model of this build, as `statechart run` runs it.
        let document = try SCXMLChart.load(
            contentsOf: URL(fileURLWithPath: item.document), dataModels: BuiltDataModels.all)
        let result = try item.compare(document, item.steps)
        comparisons += result.comparisons
        if let unrepresentable = result.unrepresentable {
            print("equivalence \(item.suite)/\(item.name): not comparable past \(unrepresentable)")
            notComparable[item.suite, default: 0] += 1
            continue
        }
        if let mismatch = result.mismatch {
            Issue.record("\(item.suite)/\(item.name): \(mismatch)")
            continue
        }
        identical[item.suite, default: 0] += 1
        outside += result.eventsOutsideTheEnum
        if item.mustPass {
            if result.activeStates == ["pass"] {
                passed[item.suite, default: 0] += 1
            } else {
                Issue.record("\(item.suite)/\(item.name): the generated chart ends in \(result.activeStates), not pass")
            }
        }
    }
    for suite in ["w3c", "scion", "examples"] {
        let count = cases.filter { $0.suite == suite }.count
        let documents = cases.filter { $0.suite == suite && $0.form == .document }.count
        let mustPass = cases.filter { $0.suite == suite && $0.mustPass }.count
        let pass = mustPass > 0 ? ", \(passed[suite, default: 0]) of \(mustPass) that need no other session pass" : ""
        let partial = notComparable[suite].map { ", \($0) sending an event the document names only by a prefix" } ?? ""
        print(
            "equivalence \(suite): \(count) compiled (\(count - documents) as charts, \(documents) as documents), \(identical[suite, default: 0]) identical\(pass)\(partial)"
        )
    }
    print(
        "equivalence: \(comparisons) comparisons of active states; \(outside) events outside the generated enums, given to the interpreter alone"
    )
}
EOF

echo "== generated files, under swift format lint" >&2
swift format lint --strict --configuration "$root/.swift-format" "$work"/Tests/EquivalenceTests/Generated/*.swift

echo "== the generated test target" >&2
(cd "$work" && swift build --build-tests >&2 && swift test --skip-build 2>&1) | tee "$work/test.log" | grep -E "^equivalence|✘|error:" || true
grep -q "Test run with .* passed" "$work/test.log" || { echo "the equivalence test failed" >&2; exit 1; }

echo
while IFS=$'\t' read -r suite total generated; do
  case "$suite" in
    *-refused) echo "  refused $total: $generated" ;;
    *) echo "$suite: $total documents, $generated generated" ;;
  esac
done < "$work/generation.tsv"
