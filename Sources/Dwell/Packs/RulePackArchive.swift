package import Foundation

/// The bytes of a downloadable rule pack: one JSON document holding every script by name.
///
/// ```json
/// {"format": "dwell-rule-pack/1", "version": 7, "files": {"badges.lua": "unlock \"x\" { ... }", "streaks.lua": "..."}}
/// ```
///
/// `version` (an integer from 0 to 2^53, optional) orders packs: a tracker installs a pack
/// only over an older one (``Tracker/installRulePack(_:signature:)``). An archive without
/// one (made before versions) is version 0: it still loads, and a pack of version 1 or more replaces it.
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
  /// The pack's version, as written (`nil`: an archive made before versions, version 0).
  package let declaredVersion: Int?
  /// The pack's version for ordering: the declared one, or 0.
  package var version: Int { declaredVersion ?? 0 }
  /// The largest version accepted: every integer up to it survives a JSON number.
  package static let maximumVersion = 1 << 53

  /// An archive of these scripts (names must be unique), of `version` (`nil`: none written).
  package init(files: [String: String], version: Int? = nil) {
    contents = files
    declaredVersion = version
  }

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
    if let version = document.version, !(0...Self.maximumVersion).contains(version) {
      throw .malformedArchive("version \(version), expected an integer from 0 to \(Self.maximumVersion)")
    }
    if let bad = document.files.keys.first(where: { $0.isEmpty || $0.contains("/") || $0.contains("\0") }) {
      throw .malformedArchive("bad file name '\(bad)'")
    }
    contents = document.files
    declaredVersion = document.version
  }

  /// The archive's bytes (sorted keys: the same files give the same bytes).
  package var data: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let document = ArchiveDocument(format: Self.format, version: declaredVersion, files: contents)
    return (try? encoder.encode(document)) ?? Data()
  }

  package static func == (a: Self, b: Self) -> Bool {
    a.contents == b.contents && a.declaredVersion == b.declaredVersion
  }

  private struct ArchiveDocument: Codable {
    var format: String
    var version: Int?
    var files: [String: String]
  }
}
