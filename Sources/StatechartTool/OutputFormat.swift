#if Tools
import ArgumentParser

/// How `check` and `test` print what they found: `--format text|json|github`.
public enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Lines for people: `FILE:LINE:COLUMN: SEVERITY: MESSAGE`, or the test report, then a summary.
    case text
    /// One JSON document, as `--json` writes it.
    case json
    /// GitHub Actions annotations (`GitHubAnnotation`): `check`'s findings, then its summary;
    /// `test`'s report, then each failed test.
    case github
}
#endif
