// The formats an export is written in.
internal import Foundation

/// Export formats.
public enum ExportFormat: String, Sendable, CaseIterable {
  /// One JSON object with `days`, `visits`, `unlocks`, `awards`, `pluginStates` and
  /// `sessions`, keys sorted (loads as-is with DuckDB's `read_json`).
  case json
  /// RFC 4180 CSV, one row per record, with a `kind` column (`day`, `visit`, `unlock`,
  /// `award`, `plugin-state`, `sessions`); empty fields are absent values (loads with
  /// `read_csv`). `count` is a screen's visits begun that day on `day` rows, and the number
  /// of sessions on the `sessions` row.
  case csv
}
