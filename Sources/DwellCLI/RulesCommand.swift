internal import Dwell
internal import DwellHarness
internal import DwellLua
internal import Foundation

/// `dwell rules check FILE|DIR`: validates rules and explains each in words.
enum RulesCommand {
  static let command = Command(
    name: "rules check",
    summary: "Validate rules (JSON or Lua) and explain each in words",
    discussion: """
      Validates a JSON rules file, a Lua script, or a folder of scripts: syntax, the forms of
      the Accounting article, repeated ids, and uses of what the sandbox does not offer (io, os, require...).
      Then explains each rule in words, and runs every check and plugin of a Lua pack through a
      short simulated week (launch, each screen the pack names, a pause, midnight, a time-zone
      change), reporting the errors they raise with file and line; each call is bounded by the
      sandbox's limits and the week by 20 seconds (its own load of the pack included). Loading
      the pack stops at the sandbox's backstops: 10 s for Lua to read its files (timeToRead)
      and 10 s for their code to run (timeToLoad). Exit 0 when valid, 1 when not.
      """,
    arguments: [.init("PATH", "A rules file (.json or .lua) or a folder of .lua scripts")],
    options: [.flag("no-run", "Only load and explain: run no check or plugin")],
    sections: [.init("EXAMPLE", "dwell rules check rules/learning")],
    run: run)

  static let forbidden = ScriptNames.withheld

  static func run(_ args: Arguments) throws {
    let path = args.argument("PATH")
    // The load first, then the scan within the same time: a pack refused at the load's
    // limit is refused then, not after a scan of its text besides.
    let deadline = ContinuousClock.now + ScriptLimits().timeToRead + ScriptLimits().timeToLoad
    let loaded = Result { () throws(RuleError) -> RuleSource in try RuleSource.load(path) }
    var warnings: [String] = []
    if !path.hasSuffix(".json") {
      for (file, text) in luaFiles(path) {
        guard let found = sandboxWarnings(file: file, text: text, until: deadline) else {
          Terminal.show("note: \(file): not scanned for what scripts cannot use (the load's time was up)")
          continue
        }
        warnings += found
      }
    }
    let source: RuleSource
    do {
      source = try loaded.get()
    } catch {
      for warning in warnings { Terminal.show("warning: \(warning)") }
      throw CommandFailure("invalid rules: \(error)")
    }
    // Checked as `dwell replay` runs them: a JSON file defines no levels for its `level` parts.
    do { try RuleSet(rules: source.pack == nil ? source.rules : [], pack: source.pack).validate() } catch {
      throw CommandFailure("invalid rules: \(path): \(error)")
    }
    let count = source.rules.count
    Terminal.show("\(path): \(count) rule\(count == 1 ? "" : "s")\(warnings.isEmpty ? ", valid" : "")")
    for rule in source.rules {
      var line = "  \(rule)"
      if rule.points > 0 { line += " (\(rule.points) points\(rule.every == nil ? "" : " each time"))" }
      if rule.isHidden { line += " [hidden]" }
      Terminal.show(line)
    }
    if let pack = source.pack {
      if !pack.levels.isEmpty {
        Terminal.show("  levels: " + pack.levels.map { "\($0.name) from \($0.points)" }.joined(separator: ", "))
      }
      if !pack.plugins.isEmpty { Terminal.show("  plugins: " + pack.plugins.joined(separator: ", ")) }
    }
    for note in RuleNotes.notes(source.rules) { Terminal.show("note: \(note)") }
    guard warnings.isEmpty else {
      for warning in warnings { Terminal.show("error: \(warning)") }
      throw CommandFailure("\(path) uses what rule scripts cannot use (at run time those rules would be disabled)")
    }
    if source.pack != nil, !args.flag("no-run") { try trial(path) }
  }

  /// Runs the pack through a simulated week (``PackTrial``) and fails on its scripts' errors.
  static func trial(_ path: String) throws {
    let findings: PackTrial.Findings
    do {
      findings = try PackTrial.run(path: path)
    } catch {
      throw CommandFailure("the simulated week did not start: \(error)")
    }
    let stopped = findings.stoppedEarly ? " (stopped after \(findings.days) days: the trial's 20 s were up)" : ""
    guard !findings.errors.isEmpty else {
      Terminal.show("ran a simulated week\(stopped): no check or plugin raised an error")
      return
    }
    for error in findings.errors { Terminal.show("error: \(error)") }
    let count = findings.errors.count
    throw CommandFailure(
      "\(count) error\(count == 1 ? "" : "s") in a simulated week\(stopped) (a check or plugin that raises is "
        + "disabled in the app); --no-run skips the week")
  }

  static func luaFiles(_ path: String) -> [(String, String)] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
    let files =
      isDirectory.boolValue
      ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".lua") }.sorted()
        .map { path + "/" + $0 } : [path]
    return files.compactMap { file in
      // Bounded as the loader reads it: a huge or endless file is the loader's error to report.
      (try? RuleFile.read(file)).flatMap { String(data: $0, encoding: .utf8) }.map { (file, $0) }
    }
  }

  /// Lines that reach for what the sandbox does not offer (a heuristic: comments skipped,
  /// strings not parsed). At run time such code raises an error and its rule is disabled.
  /// `nil` when `deadline` passed before the scan ended.
  static func sandboxWarnings(file: String, text: String, until deadline: ContinuousClock.Instant? = nil) -> [String]? {
    var warnings: [String] = []
    for (number, line) in TextLines.lines(of: text).enumerated() {
      if let deadline, number % 256 == 0, ContinuousClock.now > deadline { return nil }
      var code = Array(line.utf8)
      if let comment = code.indices.first(where: { code[$0] == 45 && $0 + 1 < code.count && code[$0 + 1] == 45 }) {
        code.removeSubrange(comment...)
      }
      for name in forbidden where uses(name, in: code) {
        warnings.append("\(file):\(number + 1): uses '\(name)', which rule scripts cannot use")
      }
    }
    return warnings
  }

  /// Whether `code` names `name` as a library or function: not part of a longer name or a
  /// field (`x.os`), and followed by `.`, `(`, `:`, `[` or a string. A scan of the bytes: a
  /// pack of 10,000 lines is checked in milliseconds.
  static func uses(_ name: String, in bytes: [UInt8]) -> Bool {
    let name = name.utf8
    guard let first = name.first, bytes.count >= name.count else { return false }
    func isNamePart(_ byte: UInt8) -> Bool {
      (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
    }
    var start = 0
    while start + name.count <= bytes.count {
      defer { start += 1 }
      guard bytes[start] == first, bytes[start..<start + name.count].elementsEqual(name) else { continue }
      if start > 0, isNamePart(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: ".") { continue }
      var next = start + name.count
      while next < bytes.count, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\t") { next += 1 }
      if next < bytes.count, ".(:[\"'".utf8.contains(bytes[next]) { return true }
    }
    return false
  }
}
