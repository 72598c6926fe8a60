// Finds and reads `prelude.lua`, the Lua every rule pack runs first, from DwellLua's resources.
internal import Foundation

/// The prelude's text, read once per process.
///
/// SwiftPM's generated `Bundle.module` traps when the resource bundle is missing (a
/// binary copied without it); this looks in the same places and reports instead.
enum Prelude {
  static let text: Result<String, ScriptError> = {
    for directory in candidates {
      let url = directory.appendingPathComponent("prelude.lua")
      if let data = FileManager.default.contents(atPath: url.path) {
        return .success(String(decoding: data, as: UTF8.self))
      }
    }
    return .failure(ScriptError("DwellLua's prelude.lua is missing: ship the Dwell_DwellLua resource bundle"))
  }()

  private static var candidates: [URL] {
    let names = ["Dwell_DwellLua.bundle", "Dwell_DwellLua.resources"]
    var roots = [Bundle.main.resourceURL, Bundle.main.bundleURL, Bundle(for: Marker.self).resourceURL]
      .compactMap { $0 }
    roots.append(Bundle(for: Marker.self).bundleURL.deletingLastPathComponent())
    roots.append(URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent())
    var result: [URL] = []
    for root in roots {
      result += names.map { root.appendingPathComponent($0) }
      result += names.map { root.appendingPathComponent($0).appendingPathComponent("Contents/Resources") }
    }
    return result
  }

  private final class Marker {}
}
