// Finding the line of each rule in a JSON rules file.

/// Finds the line of each rule's `"id"` key in a JSON rules file (the value tree keeps no
/// positions), in one pass over the text: the work grows with the file, not with the file
/// times the number of rules.
struct RuleLines {
  private var lines: [Int?] = []
  /// Bytes read to find every line: at most the file's size.
  private(set) var bytesRead = 0

  init(text: String) {
    var depth = 0
    var line = 1
    var expectingElement = false
    var inString = false
    var escaped = false
    var stringStart = 0
    var keyIsId = false
    var idLine = 1
    var bytes = Array(text.utf8)
    bytes.append(0x20)
    for (index, byte) in bytes.enumerated() {
      bytesRead += 1
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          // A key of the array's objects spelled exactly `id` (an escaped spelling finds no line).
          keyIsId = depth == 2 && bytes[stringStart..<index].elementsEqual("id".utf8)
        }
        continue
      }
      switch byte {
      case 0x20, 0x09, 0x0D: continue
      case 0x0A: line += 1; continue
      case UInt8(ascii: ":"):
        if keyIsId, let last = lines.indices.last, lines[last] == nil { lines[last] = idLine }
        keyIsId = false
        continue
      default: break
      }
      keyIsId = false
      if depth == 1, expectingElement, byte != UInt8(ascii: "]") {
        lines.append(nil)
        expectingElement = false
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        stringStart = index + 1
        idLine = line
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        if depth == 1 { expectingElement = true }
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
      case UInt8(ascii: ","):
        if depth == 1 { expectingElement = true }
      default: break
      }
    }
  }

  /// The 1-based line of the `"id"` key of the array's element at `offset`, if it has one.
  func line(of offset: Int) -> Int? { offset < lines.count ? lines[offset] : nil }
}
