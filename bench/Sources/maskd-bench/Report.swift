// maskd-bench: the one table every run prints, and the notes under it.

/// One line of the table.
struct Row {
    var number: String
    var name: String
    var median: String
    var p99: String
    var baseline: String
    var ratio: String
    var target: String
    var result: String
}

/// What a row's result column says.
enum Verdict {
    static func check(_ passed: Bool) -> String { passed ? "PASS" : "MISS" }
    static let none = "—"
}

/// Collects rows, notes and failures, then prints them as one Markdown table.
final class Report {
    private(set) var rows: [Row] = []
    private(set) var notes: [String] = []
    /// Measurements that could not be made: the run exits non-zero when there is any.
    private(set) var failures: [String] = []

    func add(_ row: Row) { rows.append(row) }

    func note(_ text: String) { notes.append(text) }

    /// Records a section that broke, as a row that says so.
    func fail(_ number: String, _ name: String, _ error: Error) {
        failures.append("\(name): \(error)")
        add(
            Row(
                number: number, name: name, median: "—", p99: "—", baseline: "—", ratio: "—", target: "—",
                result: "FAIL"))
    }

    func render() -> String {
        let header = Row(
            number: "#", name: "row", median: "median", p99: "p99", baseline: "baseline (median)",
            ratio: "ratio", target: "target", result: "result")
        let all = [header] + rows
        let columns: [(Row) -> String] = [\.number, \.name, \.median, \.p99, \.baseline, \.ratio, \.target, \.result]
        let widths = columns.map { column in all.map { column($0).count }.max() ?? 0 }
        func line(_ row: Row) -> String {
            "| "
                + zip(columns, widths).map { column, width in
                    let text = column(row)
                    return text + String(repeating: " ", count: width - text.count)
                }.joined(separator: " | ") + " |"
        }
        var out = [line(header)]
        out.append("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
        out += rows.map(line)
        if !notes.isEmpty {
            out.append("")
            out += notes.map { "- " + $0 }
        }
        if !failures.isEmpty {
            out.append("")
            out.append("Failures (the run exits 1):")
            out += failures.map { "- " + $0 }
        }
        return out.joined(separator: "\n")
    }
}
