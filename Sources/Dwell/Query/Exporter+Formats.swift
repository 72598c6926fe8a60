internal import Foundation

/// The export's two formats, written section by section: JSON as `JSONEncoder` renders the
/// whole document (keys sorted, pretty-printed, byte for byte), each page encoded alone
/// and indented in place; CSV as RFC 4180 rows.
extension Exporter {
  /// Writes the export in `format` to `sink` (not flushed).
  func write(_ format: ExportFormat, to sink: ExportSink) throws {
    switch format {
    case .json: try writeJSON(to: sink)
    case .csv: try writeCSV(to: sink)
    }
  }

  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return encoder
  }

  /// `{`, each section's `"key" : [...]` and `sessions`, sorted by key, `}`.
  private func writeJSON(to sink: ExportSink) throws {
    let encoder = Self.encoder()
    var members = sections.map { section in (section.key, { try section.json(sink, encoder) }) }
    members.append(("sessions", { try sink.write(String(sessions)) }))
    members.sort { $0.0 < $1.0 }
    try sink.write("{")
    for (index, (key, value)) in members.enumerated() {
      try sink.write(index == 0 ? "\n  \"" : ",\n  \"")
      try sink.write(key)
      try sink.write("\" : ")
      try value()
    }
    try sink.write("\n}")
  }

  /// A JSON array one level deep, its pages encoded one at a time: `JSONEncoder` renders a
  /// page as `[`, its rows, `\n]` at depth 0; indented by two spaces after each line break
  /// (a line break in JSON is always formatting: strings escape theirs), the pages' rows
  /// join with `,`. An array with no row is `JSONEncoder`'s empty array, indented.
  static func writeJSONArray<Row: Encodable>(
    _ pages: (_ body: ([Row]) throws -> Void) throws -> Void, to sink: ExportSink, encoder: JSONEncoder
  ) throws {
    var first = true
    let closing = Array("\n  ]".utf8)
    try pages { page in
      guard !page.isEmpty else { return }
      let text = indented(try encoder.encode(page))
      guard text.first == UInt8(ascii: "["), text.count > closing.count + 1,
        text.suffix(closing.count).elementsEqual(closing)
      else {
        throw EncodingError.invalidValue(page, .init(codingPath: [], debugDescription: "an unexpected JSON array"))
      }
      if !first { try sink.write(",".utf8) }
      try sink.write(text[(first ? 0 : 1)..<(text.count - closing.count)])
      first = false
    }
    try sink.write(first ? indented(try encoder.encode([Row]())) : closing)
  }

  /// `data` with two spaces after each line break but on empty lines (`JSONEncoder` leaves
  /// the empty line of an empty array unindented: `[\n\n  ]`).
  private static func indented(_ data: Data) -> [UInt8] {
    let newline = UInt8(ascii: "\n")
    let space = UInt8(ascii: " ")
    return data.withUnsafeBytes { raw in
      var bytes: [UInt8] = []
      bytes.reserveCapacity(raw.count + raw.count / 4)
      var index = 0
      while index < raw.count {
        let byte = raw[index]
        bytes.append(byte)
        index += 1
        if byte == newline && (index == raw.count || raw[index] != newline) {
          bytes.append(space)
          bytes.append(space)
        }
      }
      return bytes
    }
  }

  static let csvHeader =
    "kind,screen,day,started_at,ended_at,seconds,rule,title,points,source,reason,state,count,action,period"

  /// The columns of every CSV row, `kind` included.
  static let csvColumns = 15

  /// The header, each section's rows, the `sessions` row; every line ends in CRLF.
  private func writeCSV(to sink: ExportSink) throws {
    try sink.write(Self.csvHeader + "\r\n")
    for section in sections { try section.csv(sink) }
    try Self.writeCSV([["sessions"] + Array(repeating: nil, count: 11) + [String(sessions), nil, nil]], to: sink)
  }

  /// CSV lines of `rows`, fields quoted where needed.
  static func writeCSV(_ rows: some Sequence<[String?]>, to sink: ExportSink) throws {
    var text = ""
    for row in rows {
      text += row.map(field).joined(separator: ",")
      text += "\r\n"
    }
    try sink.write(text)
  }

  /// `text` as a CSV field: quoted when it holds a comma, a quote or a line break (bytes,
  /// not characters: `"\r\n"` is one `Character`, equal to neither `"\r"` nor `"\n"`).
  private static func field(_ text: String?) -> String {
    guard let text else { return "" }
    guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
