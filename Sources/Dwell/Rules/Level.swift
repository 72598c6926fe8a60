/// A level reached at a number of points ("Scholar" from 150 points).
public struct Level: Sendable, Equatable {
  /// The level's name.
  public var name: String
  /// Points needed.
  public var points: Int

  /// The most points a level may need, as in a Lua pack's `levels`.
  static let maximumPoints = 1_000_000_000_000_000

  /// Creates a level.
  public init(_ name: String, points: Int) {
    self.name = name
    self.points = points
  }

  /// "Scholar (100 to Master)": the level reached with `points` and what the next needs.
  package static func summary(_ points: Int, in levels: [Level]) -> String? {
    guard let reached = reached(points, in: levels) else { return nil }
    guard let next = reached.next else { return reached.level.name }
    // Saturating: points from plugins and levels' points are the host's, of any size.
    let (missing, overflow) = next.points.subtractingReportingOverflow(points)
    return "\(reached.level.name) (\(overflow ? Int.max : missing) to \(next.name))"
  }

  /// The highest level reached with `points`, its index, and the next level if any.
  package static func reached(_ points: Int, in levels: [Level]) -> (index: Int, level: Level, next: Level?)? {
    let sorted = levels.sorted { $0.points < $1.points }
    guard let index = sorted.lastIndex(where: { $0.points <= points }) else { return nil }
    return (index, sorted[index], index + 1 < sorted.count ? sorted[index + 1] : nil)
  }
}
