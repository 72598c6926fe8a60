package import Foundation

/// The bytes of a downloadable rule pack: one JSON document holding every script by name.
///
/// ```json
/// {"format": "dwell-rule-pack/1", "files": {"badges.lua": "unlock \"x\" { ... }", "streaks.lua": "..."}}
/// ```
///
/// The scripts load in the order of their names, as a folder's do. A pack is signed by
/// signing these exact bytes with Ed25519 (64-byte detached signature); any Ed25519 tool
/// does (`libsodium`'s `crypto_sign_detached`, CryptoKit, `openssl pkeyutl -sign -rawin`).
package struct RulePackArchive: Sendable, Equatable {
  /// The format this version reads and writes.
  package static let format = "dwell-rule-pack/1"
  /// The largest archive accepted (8 MiB).
  package static let maximumSize = 8 << 20

  /// The scripts, sorted by name.
  package var files: [(name: String, text: String)] { contents.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
  private let contents: [String: String]

  /// An archive of these scripts (names must be unique).
  package init(files: [String: String]) { contents = files }

  /// Reads an archive.
  /// - Throws: ``RulePackError/malformedArchive(_:)`` saying what is wrong.
  package init(data: Data) throws(RulePackError) {
    guard data.count <= Self.maximumSize else {
      throw .malformedArchive("\(data.count) bytes, more than the \(Self.maximumSize) allowed")
    }
    let document: ArchiveDocument
    do {
      document = try JSONDecoder().decode(ArchiveDocument.self, from: data)
    } catch {
      throw .malformedArchive("not a JSON document with 'format' and 'files' (\(error))")
    }
    guard document.format == Self.format else {
      throw .malformedArchive("format '\(document.format)', expected '\(Self.format)'")
    }
    guard !document.files.isEmpty else { throw .malformedArchive("no files") }
    if let bad = document.files.keys.first(where: { $0.isEmpty || $0.contains("/") || $0.contains("\0") }) {
      throw .malformedArchive("bad file name '\(bad)'")
    }
    contents = document.files
  }

  /// The archive's bytes (sorted keys: the same files give the same bytes).
  package var data: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(ArchiveDocument(format: Self.format, files: contents))) ?? Data()
  }

  package static func == (a: Self, b: Self) -> Bool { a.contents == b.contents }

  private struct ArchiveDocument: Codable {
    var format: String
    var files: [String: String]
  }
}
