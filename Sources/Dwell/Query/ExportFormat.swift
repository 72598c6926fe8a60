// The formats an export is written in.
internal import Foundation

/// Export formats.
public enum ExportFormat: String, Sendable, CaseIterable {
  /// One JSON object with `days`, `actions` (an action's count on a local day), `visits`,
  /// `unlocks`, `earnings` (a recurring rule earned: `rule`, `period`, `earnedAt`,
  /// `points`), `awards`, `pluginStates` and `sessions`, keys sorted (loads as-is with
  /// DuckDB's `read_json`).
  case json
  /// RFC 4180 CSV, one row per record, with a `kind` column (`day`, `action`, `visit`,
  /// `unlock`, `earning`, `award`, `plugin-state`, `sessions`); empty fields are absent
  /// values (loads with `read_csv`). `count` is a screen's visits begun that day on `day`
  /// rows, the action's count that day on `action` rows (named in `action`), and the number
  /// of sessions on the `sessions` row; an `earning` row has its instant in `started_at`
  /// and its period ("2026-05-04", "2026-W19", "2026-05") in `period`.
  case csv
}
