// One local day's accrued time and visits of a subject, as the store reads it back.

/// One row of the store's day totals: a subject's time and visits on a day.
struct DayRow {
  var day: Day
  var nanos: Int64
  var visits: Int
}
