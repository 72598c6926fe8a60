// dwell-bench's export figures: the peak memory an export of the year store adds, measured
// in a child process of its own (`--export-child FORMAT STORE OUT`), so nothing the
// benchmark did before (building the store, the other figures) hides it.
import Dwell
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Resident memory now, in MiB (`/proc/self/statm` on Linux; elsewhere the peak so far,
/// which in a fresh child is the same or more, so the growth reported is not overstated).
func residentMiB() -> Double {
  if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
    let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
  {
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
  }
  return peakMiB()
}

/// The child: opens the store at `store`, exports it as `format` to the file `out`, and
/// prints the peak growth of its resident memory over the export (MiB), the bytes written
/// and the seconds taken.
func exportChild(_ arguments: [String]) throws {
  guard arguments.count == 3, let format = ExportFormat(rawValue: arguments[0]) else {
    throw CocoaError(.featureUnsupported)
  }
  let store = try Store(path: arguments[1], readOnly: true)
  guard FileManager.default.createFile(atPath: arguments[2], contents: nil) else { throw CocoaError(.fileWriteUnknown) }
  let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: arguments[2]))
  let base = residentMiB()
  let start = now()
  try store.export(format, to: handle)
  let seconds = Double(now() - start) / 1e9
  try handle.close()
  let bytes = (try? FileManager.default.attributesOfItem(atPath: arguments[2])[.size] as? Int) ?? 0
  print("\(peakMiB() - base) \(bytes) \(seconds)")
}

/// Runs one child per format on the store at `path` and reports `export_<format>_peak_mib`
/// (the child's peak resident memory minus its resident memory when the export began),
/// `export_<format>_mb` (the output's size) and `export_<format>_s`.
@MainActor func exportFigures(store path: String, scratch: URL) throws {
  let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
  for format in ExportFormat.allCases {
    log("export \(format.rawValue)...")
    let out = scratch.appendingPathComponent("export.\(format.rawValue)").path
    let child = Process()
    child.executableURL = executable
    child.arguments = ["--export-child", format.rawValue, path, out]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    child.waitUntilExit()
    let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    try? FileManager.default.removeItem(atPath: out)
    guard child.terminationStatus == 0, fields.count == 3 else {
      log("the \(format.rawValue) export failed (status \(child.terminationStatus))")
      continue
    }
    report("export_\(format.rawValue)_peak_mib", fields[0], "MiB", target: "≤ 64", pass: fields[0] <= 64)
    report("export_\(format.rawValue)_mb", fields[1] / 1e6, "MB")
    report("export_\(format.rawValue)_s", fields[2], "s")
  }
}
