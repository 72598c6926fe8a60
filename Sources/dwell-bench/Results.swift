// dwell-bench's results: each figure reported with its target, progress on stderr, and
// the table (or one JSON object with `--json`) at the end.
import Foundation

@MainActor func log(_ text: String) {
  if !json { FileHandle.standardError.write(Data(("\(text) (peak so far \(Int(peakMiB())) MiB)\n").utf8)) }
}

@MainActor var results: [(key: String, value: Double, unit: String, target: String?, pass: Bool?)] = []
@MainActor func report(_ key: String, _ value: Double, _ unit: String = "ns", target: String? = nil, pass: Bool? = nil)
{
  results.append((key, value, unit, target, pass))
}

/// Prints the figures: a table, or one JSON object with `--json`.
@MainActor func printResults() {
  if json {
    let fields = ["\"scale\": \(scale)"] + results.map { "\"\($0.key)\": \(($0.value * 100).rounded() / 100)" }
    print("{\n  " + fields.joined(separator: ",\n  ") + "\n}")
  } else {
    print(
      "dwell-bench\(quick ? " --quick" : "") · \(yearVisits) visits over \(storeDays) days in the year store"
        + " · \(ProcessInfo.processInfo.activeProcessorCount) cores"
    )
    print("")
    print("figure".padding(toLength: 34, withPad: " ", startingAt: 0) + "value".leftPadded(16) + "  target")
    for result in results {
      let value = result.value >= 100 ? String(format: "%.0f", result.value) : String(format: "%.2f", result.value)
      let verdict = result.pass.map { $0 ? "ok" : "MISSED" } ?? ""
      print(
        result.key.padding(toLength: 34, withPad: " ", startingAt: 0) + "\(value) \(result.unit)".leftPadded(16)
          + "  \(result.target ?? "")  \(verdict)")
    }
  }
}

extension String {
  func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
