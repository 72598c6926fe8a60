public import Foundation

#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#endif

/// Signed rule packs downloaded as bytes: verified against the app's trusted keys, loaded,
/// put in force, and kept beside the store as the last good pack, which the next launch loads.
extension Tracker {
  /// Verifies, loads and puts in force a rule pack downloaded as `data` (one JSON document,
  /// `{"format": "dwell-rule-pack/1", "files": {"badges.lua": "..."}}`), signed with
  /// Ed25519 by one of ``Configuration/trustedPackKeys``. The pack replaces the one in force, keeping the
  /// app's Swift rules, and is saved beside the store; every later launch loads it (and
  /// verifies it again) before the first event is counted.
  ///
  /// Packs carry a version (`"version": 7` in the document; none is version 0): a pack
  /// installs only over an older one, and with a rules directory only from its
  /// ``Configuration/bundledPackVersion`` on, so an old signed pack served again cannot
  /// replace a newer one. The installed pack and the rules directory's pack are kept in
  /// two slots: the installed one is in force, and the directory's reloads do not replace
  /// it, until an app update raises `bundledPackVersion` above it.
  ///
  /// Nothing changes when it throws: the last good pack stays in force and on disk.
  ///
  /// ```swift
  /// let (data, _) = try await URLSession.shared.data(from: packURL)
  /// let (signature, _) = try await URLSession.shared.data(from: packURL.appendingPathExtension("sig"))
  /// try tracker.installRulePack(data, signature: signature)
  /// ```
  /// Does disk I/O (one small write and a rename) and loads the scripts on the caller's thread.
  /// - Throws: ``RulePackError``: no trusted keys, a signature that does not verify (a
  ///   changed byte, a wrong key, truncated data), a malformed archive, a pack that does
  ///   not load or clashes with the app's rules, a pack whose version is not newer
  ///   (``RulePackError/notNewer(offered:current:)``), or a pack that could not be saved.
  public func installRulePack(_ data: Data, signature: Data) throws(RulePackError) {
    let (pack, version) = try verifiedPack(data, signature: signature) { version throws(RulePackError) in
      try checkNewer(version)
    }
    let path = installedPackPath
    let staged = path.map { $0 + ".new" }
    if let staged {
      do {
        try (signature + data).write(to: URL(fileURLWithPath: staged), options: .atomic)
      } catch {
        throw .notSaved("\(error)")
      }
    }
    do {
      try setPack(pack, strict: true)
    } catch {
      if let staged { try? FileManager.default.removeItem(atPath: staged) }
      throw .refused(error)
    }
    installedPackVersion.withLock { $0 = version }
    guard let path, let staged else { return }
    if rename(staged, path) != 0 {
      // In force but not saved: the next launch loads the previous pack.
      try? FileManager.default.removeItem(atPath: staged)
      throw .notSaved("cannot rename \(staged) to \(path) (errno \(errno))")
    }
  }

  /// Where the last good installed pack is kept: beside the store (`nil` in memory).
  var installedPackPath: String? {
    (try? configuration.storePath()).flatMap { $0 }.map { $0 + ".rulepack" }
  }

  /// Refuses `version` unless it is newer than the installed pack in force and, with a
  /// rules directory, at least the bundled pack's.
  private func checkNewer(_ version: Int) throws(RulePackError) {
    if let current = installedPackVersion.withLock({ $0 }), version <= current {
      throw .notNewer(offered: version, current: current)
    }
    if let bundled = bundledPackVersion, version < bundled { throw .notNewer(offered: version, current: bundled) }
  }

  /// The rules directory's pack version, when there is a rules directory.
  private var bundledPackVersion: Int? {
    configuration.rulePackSource == nil ? nil : max(0, configuration.bundledPackVersion)
  }

  /// At launch: puts the last good installed pack in force, if there is one, unless the
  /// rules directory is newer (an app update): then that pack is deleted.
  func loadInstalledPack() {
    guard let path = installedPackPath, FileManager.default.fileExists(atPath: path) else { return }
    do {
      let saved = try Self.savedPack(at: path)
      guard saved.count > PackSignature.signatureLength else {
        throw RulePackError.malformedArchive("the saved pack at \(path) is truncated")
      }
      let signature = saved.prefix(PackSignature.signatureLength)
      let bundled = bundledPackVersion
      let archive = saved.dropFirst(PackSignature.signatureLength)
      let (pack, version) = try verifiedPack(archive, signature: Data(signature)) { version throws(RulePackError) in
        // Older than the app's own rules: left out before its scripts run.
        if let bundled, version < bundled { throw .notNewer(offered: version, current: bundled) }
      }
      try setPack(pack)
      installedPackVersion.withLock { $0 = version }
    } catch RulePackError.notNewer {
      // The app shipped newer rules than the pack installed for an older version of it.
      try? FileManager.default.removeItem(atPath: path)
    } catch let error as RulePackError {
      report(.rulesRefused(RuleError("the installed rule pack at \(path): \(error)")))
    } catch {
      // setPack reported it.
    }
  }

  /// The bytes of the saved pack at `path`, read without blocking and within a bound:
  /// refused when it is not a regular file (opening a FIFO would wait for a writer for ever,
  /// a device may never end) or holds more than a signature and the largest archive.
  static func savedPack(at path: String) throws(RulePackError) -> Data {
    // O_NONBLOCK: a FIFO put there after any check is opened without waiting, then refused.
    let descriptor = openForReading(path)
    guard descriptor >= 0 else { throw .malformedArchive("the saved pack at \(path) cannot be read (errno \(errno))") }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      let kind = SpecialFile.at(path)?.rawValue ?? "not a regular file"
      throw .malformedArchive("the saved pack at \(path) is \(kind), not a file")
    }
    let limit = PackSignature.signatureLength + RulePackArchive.maximumSize
    let data = (try? handle.read(upToCount: limit + 1)) ?? Data()
    guard data.count <= limit else {
      throw .malformedArchive(
        "the saved pack at \(path) is larger than the \(limit) bytes a pack and its signature take")
    }
    return data
  }

  /// Checks the signature against the trusted keys, reads the archive, lets `admit` refuse
  /// its version, and loads the pack.
  private func verifiedPack(
    _ data: Data, signature: Data, admit: (Int) throws(RulePackError) -> Void
  ) throws(RulePackError) -> (pack: any RulePack, version: Int) {
    let keys = configuration.trustedPackKeys.filter { $0.count == PackSignature.keyLength }
    guard !keys.isEmpty else { throw .noTrustedKeys }
    guard let loader = configuration.rulePackLoader else {
      throw .refused(
        RuleError("no pack loader is configured: set configuration.packLoader = LuaPackLoader() (DwellLua)"))
    }
    let data = Data(data)
    guard keys.contains(where: { PackSignature.isValid(signature, of: data, by: $0) }) else {
      throw .invalidSignature
    }
    let archive = try RulePackArchive(data: data)
    try admit(archive.version)
    do {
      return (try loader.load(scripts: archive.files), archive.version)
    } catch {
      throw .refused(error)
    }
  }
}

/// `open(2)` of `path` for reading without waiting (a FIFO opens at once); -1 on failure.
private func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
