internal import Dispatch
internal import Dwell
internal import Foundation

/// Runs a rule pack's scenarios (`dwell test`): each in its own simulator, several at once,
/// each passing or failing at the line of its first failed expectation or command.
public enum ScenarioRunner {
  /// What one scenario did.
  public struct Result: Sendable {
    /// The scenario file.
    public var path: String
    /// The file name without `.scenario`.
    public var name: String
    /// Expectations checked and held.
    public var passed: Int
    /// The first failure: `file:line: the line`, and what was seen instead; `nil` when it passed.
    public var failure: (line: String, seen: String)?
    /// Seconds it took.
    public var seconds: Double

    /// Whether every expectation held and every command ran.
    public var succeeded: Bool { failure == nil }
  }

  /// Runs every scenario of `pack` (see ``Scenario/files(forPack:)``), in parallel, in
  /// file order in the result.
  public static func run(pack: String) -> [Result] {
    run(Scenario.files(forPack: pack), pack: pack)
  }

  /// Runs the scenario files `paths` against the rules at `pack`.
  public static func run(_ paths: [String], pack: String) -> [Result] {
    let results = ResultBox(count: paths.count)
    DispatchQueue.concurrentPerform(iterations: paths.count) { index in
      results.set(index, run(paths[index], pack: pack))
    }
    return results.all
  }

  /// Runs one scenario file.
  public static func run(_ path: String, pack: String) -> Result {
    let began = ContinuousClock.now
    let file = (path as NSString).lastPathComponent
    var result = Result(
      path: path, name: (file as NSString).deletingPathExtension, passed: 0, failure: nil, seconds: 0)
    steps(of: path, pack: pack, into: &result)
    result.seconds = (ContinuousClock.now - began).seconds
    return result
  }

  private static func steps(of path: String, pack: String, into result: inout Result) {
    let file = (path as NSString).lastPathComponent
    if let outside = Scenario.leadsOutside(path, pack: pack) {
      result.failure = (
        "\(file): it leads outside the pack (to \(outside))",
        "a scenario is read only from inside the pack's folder: copy it into tests/"
      )
      return
    }
    let scenario: Scenario
    do {
      scenario = try Scenario(contentsOf: path)
    } catch {
      result.failure = (error.description, "the scenario does not parse")
      return
    }
    var options = Simulator.Options(rulesPath: pack, timeZone: scenario.timeZone)
    options.configuration.idleTimeout = scenario.idleTimeout
    if let timeout = scenario.sessionTimeout { options.configuration.sessionTimeout = timeout }
    guard let start = Simulator.parseStart(scenario.start, zone: scenario.timeZone) else {
      result.failure = ("\(file): @start \(scenario.start)", "@start takes YYYY-MM-DD HH:MM, from 1970 to 2200")
      return
    }
    options.start = start
    let sim: Simulator
    do {
      sim = try Simulator(options: options)
    } catch {
      result.failure = ("\(file): the pack \(pack)", "\(error)")
      return
    }
    defer { sim.close() }
    for step in scenario.steps {
      switch step {
      case .command(let line, let text):
        do {
          try sim.perform(text)
        } catch {
          result.failure = ("\(file):\(line): \(text)", error.message)
          return
        }
      case .expect(let line, let text, let expectation):
        if let seen = expectation.failure(in: sim) {
          result.failure = ("\(file):\(line): \(text)", seen)
          return
        }
        result.passed += 1
      }
    }
    if result.passed == 0 {
      // A scenario that checks nothing would pass whatever the rules do: a false PASS in CI.
      result.failure = (
        "\(file): no expectation", "a scenario passes only on what it checks: add an 'expect' line"
      )
    }
  }

  private final class ResultBox: @unchecked Sendable {
    // @unchecked: `items` is touched only under `lock`.
    private let lock = NSLock()
    private var items: [Result?]
    init(count: Int) { items = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: Result) { lock.withLock { items[index] = result } }
    var all: [Result] { lock.withLock { items.compactMap { $0 } } }
  }
}
