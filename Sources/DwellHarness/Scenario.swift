internal import Dwell
internal import DwellLua
public import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// A rule pack's test: a file of simulator commands and expectations (`tests/*.scenario`
/// beside the pack), parsed into steps that keep their line numbers.
///
/// ```text
/// # The bonus level opens after 30 minutes of lessons.
/// @start 2026-05-04 09:00
/// @tz Europe/Berlin
/// open Lessons
/// wait 29m
/// expect locked bonus-level
/// wait 1m
/// expect unlocked bonus-level at 09:30
/// expect time Lessons 30m
/// ```
public struct Scenario: Sendable {
  /// The file it was read from.
  public var path: String
  /// Its name: the file name without `.scenario`.
  public var name: String { ((path as NSString).lastPathComponent as NSString).deletingPathExtension }
  /// The local time it starts at (`@start`, default 2026-05-04 09:00, a Monday).
  public var start = "2026-05-04 09:00"
  /// The time zone (`@tz`, default UTC, so results do not depend on the machine).
  public var timeZone = TimeZone(identifier: "UTC") ?? .current
  /// `@idle-timeout` and `@session-timeout`, when given.
  public var idleTimeout: Duration?
  public var sessionTimeout: Duration?
  /// The commands and expectations, in order.
  var steps: [Step] = []

  enum Step: Sendable {
    case command(line: Int, text: String)
    case expect(line: Int, text: String, Expectation)
  }

  /// A mistake in a scenario file: its line and what is wrong.
  public struct ParseError: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// Reads a scenario file: refused from its size when over 4 MiB, as a rule file is.
  ///
  /// - Throws: ``ParseError`` naming the file and line of an unknown directive or a
  ///   malformed expectation, or the file when it cannot be read or is too large.
  public init(contentsOf path: String) throws(ParseError) {
    let data: Data
    do {
      data = try RuleFile.read(path)
    } catch {
      throw ParseError(description: error.description)
    }
    try self.init(text: String(decoding: data, as: UTF8.self), path: path)
  }

  /// Parses scenario text; `path` names it in messages.
  public init(text: String, path: String) throws(ParseError) {
    self.path = path
    let file = (path as NSString).lastPathComponent
    for (index, raw) in TextLines.lines(of: text).enumerated() {
      let line = index + 1
      let text = raw.trimmingCharacters(in: .whitespaces)
      func fail(_ message: String) -> ParseError { ParseError(description: "\(file):\(line): \(message)") }
      if text.isEmpty || text.hasPrefix("#") { continue }
      if text.hasPrefix("@") {
        guard steps.isEmpty else { throw fail("\(text.split(separator: " ")[0]) goes before the first command") }
        do {
          try directive(text)
        } catch {
          throw fail(error.message)
        }
      } else if text.lowercased().hasPrefix("expect ") || text.lowercased() == "expect" {
        do {
          steps.append(.expect(line: line, text: text, try Expectation(text)))
        } catch {
          throw fail(error.message)
        }
      } else {
        let verb = ((try? Simulator.words(text)) ?? text.split(separator: " ").map(String.init)).first?.lowercased()
        if let verb, let command = Simulator.command(named: verb), command.writesFiles {
          throw fail(
            "'\(verb)' writes a file, which a scenario may not do (a pack's tests are untrusted); "
              + "use it in 'dwell sim' instead")
        }
        steps.append(.command(line: line, text: text))
      }
    }
  }

  private mutating func directive(_ text: String) throws(Simulator.CommandError) {
    let words = text.split(separator: " ", maxSplits: 1).map(String.init)
    let value = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
    switch words[0] {
    case "@start":
      // Checked here, where its line is known (a zone changes no date's validity).
      guard Simulator.parseStart(value, zone: TimeZone(identifier: "UTC") ?? .current) != nil else {
        throw .init(
          "@start takes YYYY-MM-DD HH:MM (hours 00 to 23, minutes 00 to 59), from 1970 to 2200, not '\(value)'; "
            + "write, for example, @start 2026-05-04 09:00")
      }
      start = value
    case "@tz":
      do {
        timeZone = try TimeZoneName.zone(value)
      } catch {
        throw .init("@tz: \(error.message)")
      }
    case "@idle-timeout": idleTimeout = try SimDuration.parse(value)
    case "@session-timeout": sessionTimeout = try SimDuration.parse(value)
    default:
      let hint = Spelling.hint(for: words[0], in: ["@start", "@tz", "@idle-timeout", "@session-timeout"])
      throw .init(
        "unknown directive '\(words[0])'\(hint); a scenario takes @start, @tz, @idle-timeout, @session-timeout")
    }
  }

  /// The `.scenario` files in `PACK/tests` (or beside a single-file pack, in `tests/`), sorted.
  public static func files(forPack pack: String) -> [String] {
    let folder = self.folder(ofPack: pack) + "/tests"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".scenario") && !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
  }

  /// The pack's folder: the pack when it is a folder, the one holding it otherwise.
  static func folder(ofPack pack: String) -> String {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: pack, isDirectory: &isDirectory)
    let folder = isDirectory.boolValue ? pack : (pack as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }

  /// Where the scenario at `path` really is when that is outside the pack's folder (a link
  /// in `tests/`, or a `tests/` that is a link, to `/etc/shadow`), links followed; `nil`
  /// when it is inside (or does not resolve: reading it then says it cannot be read).
  package static func leadsOutside(_ path: String, pack: String) -> String? {
    guard let real = realPath(path), let root = realPath(folder(ofPack: pack)) else { return nil }
    return real.hasPrefix(root.hasSuffix("/") ? root : root + "/") ? nil : real
  }

  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
