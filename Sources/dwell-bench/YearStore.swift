// dwell-bench's year store: a heavy year of generated visits, folded through the writer's
// own path, for the writer, open, query and export figures.
import Dwell
import DwellTesting

/// Folds `visits` generated visits (seed 42) across `screens` screens over `days` days
/// from 2026-01-01 into `store`, in transactions of 10,000; returns the nanoseconds the
/// folds took.
func buildYearStore(_ store: Store, visits: Int, days: Int, screens: Int) throws -> Int64 {
  let firstDay = Day("2026-01-01") ?? Day(ordinal: 20454)
  let dayStart = Int64(firstDay.ordinal) * 86_400_000_000_000
  var rng = SeededGenerator(seed: 42)
  let names = (0..<screens).map { "Screen\($0)" }
  let batchSize = 10_000
  var written = 0
  var writerNanos: Int64 = 0
  // Visits of 1 to 40 s: 2,740 a day is 15 hours of use, heavy but possible (longer visits
  // would make the 100x store hold more screen time than 100 years have).
  while written < visits {
    let count = min(batchSize, visits - written)
    let batch = (0..<count).map { i -> Store.SyntheticVisit in
      let dayIndex = Int32((written + i) * days / visits)
      let offset = Int64.random(in: 0..<86_000, using: &rng) * 1_000_000_000
      return Store.SyntheticVisit(
        screen: names[Int.random(in: 0..<screens, using: &rng)],
        started: WallInstant(nanosecondsSince1970: dayStart + Int64(dayIndex) * 86_400_000_000_000 + offset),
        active: .milliseconds(Int64.random(in: 1_000...40_000, using: &rng)), day: firstDay.adding(days: dayIndex))
    }
    let start = now()
    try store.appendVisits(batch)
    writerNanos += now() - start
    written += count
  }
  return writerNanos
}
