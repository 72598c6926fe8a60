internal import Dwell

/// The results of `dwell test` as JUnit XML, the format CI systems read: one `testsuite`
/// per pack, one `testcase` per scenario, a `failure` with the line and what was seen.
public enum JUnitReport {
  /// The XML document for the results of each pack.
  ///
  /// ```swift
  /// let xml = JUnitReport.xml([("rules/learning", ScenarioRunner.run(pack: "rules/learning"))])
  /// ```
  public static func xml(_ packs: [(pack: String, results: [ScenarioRunner.Result])]) -> String {
    let all = packs.flatMap(\.results)
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      "<testsuites name=\"dwell test\" tests=\"\(all.count)\" failures=\"\(all.filter { !$0.succeeded }.count)\""
        + " time=\"\(seconds(all.map(\.seconds).reduce(0, +)))\">",
    ]
    for (pack, results) in packs {
      let failures = results.filter { !$0.succeeded }.count
      lines.append(
        "  <testsuite name=\"\(escape(pack))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\""
          + " skipped=\"0\" time=\"\(seconds(results.map(\.seconds).reduce(0, +)))\">")
      for result in results {
        let head =
          "    <testcase classname=\"\(escape(pack))\" name=\"\(escape(result.name))\" file=\"\(escape(result.path))\""
          + " time=\"\(seconds(result.seconds))\""
        guard let failure = result.failure else {
          lines.append(head + "/>")
          continue
        }
        lines.append(head + ">")
        lines.append(
          "      <failure message=\"\(escape(failure.line))\" type=\"expectation\">"
            + "\(escape(failure.line))\nsaw: \(escape(failure.seen))</failure>")
        lines.append("    </testcase>")
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Text made safe for XML content and attributes (controls other than tab and newline
  /// are not allowed in XML 1.0 at all: they become U+FFFD).
  static func escape(_ text: String) -> String {
    text.escapingScalars(escapes) { scalar in
      scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) ? "\u{FFFD}" : nil
    }
  }

  private static let escapes: [Unicode.Scalar: String] = [
    "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;", "\n": "&#10;", "\t": "&#9;",
  ]

  private static func seconds(_ value: Double) -> String {
    let millis = Int((value * 1000).rounded())
    return "\(millis / 1000).\(String(millis % 1000 + 1000).dropFirst())"
  }
}
