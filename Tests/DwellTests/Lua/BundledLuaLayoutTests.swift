import Foundation
import Testing

/// Package.swift's choice of Lua, on copies of the package whose `Sources/CLua/lua` holds what
/// an app's checkout can hold there: the git submodule (lua/lua.git at the release tag, with
/// its test suite, manual, test library and one-file build), what `scripts/fetch-lua` lays out
/// from the release tarball, or nothing (a clone made without `--recursive`). SwiftPM itself
/// reads each copy's manifest (`swift package describe`, no build): CLua must be compiled from
/// Lua's library files alone, without a warning, or be the system library. That the files
/// build, with no system Lua linked, CI checks on the tarball's layout (its AddressSanitizer
/// step); the C files and headers are the same in both layouts, byte for byte.
@Suite struct BundledLuaLayoutTests {
  /// The C files of Lua 5.4's library: what CLua must compile, and all it may.
  static let library = [
    "lapi.c", "lauxlib.c", "lbaselib.c", "lcode.c", "lcorolib.c", "lctype.c", "ldblib.c", "ldebug.c", "ldo.c",
    "ldump.c", "lfunc.c", "lgc.c", "linit.c", "liolib.c", "llex.c", "lmathlib.c", "lmem.c", "loadlib.c", "lobject.c",
    "lopcodes.c", "loslib.c", "lparser.c", "lstate.c", "lstring.c", "lstrlib.c", "ltable.c", "ltablib.c", "ltm.c",
    "lundump.c", "lutf8lib.c", "lvm.c", "lzio.c",
  ]
  /// Lua's headers (in both layouts).
  static let headers = [
    "lapi.h", "lauxlib.h", "lcode.h", "lctype.h", "ldebug.h", "ldo.h", "lfunc.h", "lgc.h", "ljumptab.h", "llex.h",
    "llimits.h", "lmem.h", "lobject.h", "lopcodes.h", "lopnames.h", "lparser.h", "lprefix.h", "lstate.h",
    "lstring.h", "ltable.h", "ltm.h", "lua.h", "luaconf.h", "lualib.h", "lundump.h", "lvm.h", "lzio.h",
  ]
  /// What lua/lua.git has at a 5.4 release tag besides the library and `lua.c`, as stand-ins
  /// that break the build if compiled: `onelua.c` includes every other C file, `ltests.c` is
  /// the test library, `testes/libs` holds C modules for the test suite.
  static let submoduleOnly = [
    "ltests.c", "ltests.h", "onelua.c", "all", "makefile", "README.md", ".gitignore", "manual/manual.of",
    "manual/2html", "testes/all.lua", "testes/packtests", "testes/libs/lib1.c", "testes/libs/makefile",
    "testes/libs/P1/dummy",
  ]

  static let root = TestPaths.packageRoot

  /// `swift` is on PATH (it is wherever the tests are built); in CI these tests never skip.
  static let canRun: Bool = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    return TestEnvironment.isCI
      || path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: $0 + "/swift") }
  }()

  /// The package's own Sources/CLua/lua holds Lua (the submodule checked out, or after
  /// `scripts/fetch-lua`, as in CI's AddressSanitizer step).
  static let hasRealSources = FileManager.default.fileExists(atPath: root.path + "/Sources/CLua/lua/lua.h")

  /// The sandbox's C files (`Sources/CLuaSandbox`): compiled on top of either Lua.
  static let sandbox = [
    "allow-list.c", "budget.c", "calls.c", "libraries.c", "load.c", "match-library.c", "match.c", "strings.c",
    "sustained.c",
  ]

  /// How SwiftPM sees CLua in a copy of the package: its kind, its source files, and what
  /// SwiftPM said besides; and the sandbox's target, with what it depends on.
  struct CLua {
    var moduleType: String
    var sources: Set<String>
    var warnings: [String]
    var sandboxType: String
    var sandboxSources: Set<String>
    var sandboxDependencies: [String]
  }

  /// Copies the package with `layout` (paths under Sources/CLua/lua, each a stand-in) and asks
  /// SwiftPM, with `DWELL_LUA` set to `mode` or unset, what CLua is.
  static func describe(lua layout: [String], mode: String? = nil) throws -> CLua {
    let files = FileManager.default
    let copy = files.temporaryDirectory.appendingPathComponent("dwell-lua-layout-\(UUID().uuidString)")
    defer { try? files.removeItem(at: copy) }
    try files.createDirectory(at: copy.appendingPathComponent("examples"), withIntermediateDirectories: true)
    for path in ["Package.swift", "Sources", "Tests", "examples/terminal-host"] {
      try files.copyItem(at: root.appendingPathComponent(path), to: copy.appendingPathComponent(path))
    }
    let lua = copy.appendingPathComponent("Sources/CLua/lua")
    try files.removeItem(at: lua)
    try files.createDirectory(at: lua, withIntermediateDirectories: true)
    for file in layout {
      let url = lua.appendingPathComponent(file)
      try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      let isLua = library.contains(file) || headers.contains(file)
      try Data((isLua ? "/* \(file) */\n" : "#error \(file) is not Lua's library\n").utf8).write(to: url)
    }
    // The manifest's result is cached by its text and environment, not by the files it
    // looks at: --manifest-cache none, so that each copy's files decide.
    let environment = mode.map { ["DWELL_LUA=\($0)"] } ?? ["-u", "DWELL_LUA"]
    let result = try Subprocess.run(
      "/usr/bin/env",
      environment + [
        "swift", "package", "--package-path", copy.path, "--manifest-cache", "none", "describe", "--type",
        "json",
      ], timeout: .seconds(120))
    try #require(result.status == 0, "swift package describe: \(result.stderr)")
    struct Package: Decodable {
      struct Target: Decodable {
        var name: String
        var moduleType: String
        var sources: [String]?
        var targetDependencies: [String]?
        enum CodingKeys: String, CodingKey {
          case name, sources
          case moduleType = "module_type"
          case targetDependencies = "target_dependencies"
        }
      }
      var targets: [Target]
    }
    let package = try JSONDecoder().decode(Package.self, from: Data(result.stdout.utf8))
    let target = try #require(package.targets.first { $0.name == "CLua" })
    let warnings = result.stderr.split(separator: "\n").map(String.init).filter { $0.contains("warning") }
    let sandbox = try #require(package.targets.first { $0.name == "CLuaSandbox" })
    return CLua(
      moduleType: target.moduleType, sources: Set(target.sources ?? []), warnings: warnings,
      sandboxType: sandbox.moduleType, sandboxSources: Set(sandbox.sources ?? []),
      sandboxDependencies: sandbox.targetDependencies ?? [])
  }

  @Test(.enabled(if: canRun, "needs `swift` on PATH"))
  func theSubmoduleBuildsLuaLibraryAloneWithoutAWarning() throws {
    let clua = try Self.describe(lua: Self.library + Self.headers + ["lua.c"] + Self.submoduleOnly)
    #expect(clua.moduleType == "ClangTarget")
    #expect(clua.sources == Set(Self.library.map { "lua/" + $0 }))
    #expect(clua.warnings == [])
    Self.expectTheSandbox(clua)
  }

  /// The sandbox is a C target of its own files on top of CLua, whichever Lua CLua is.
  static func expectTheSandbox(_ clua: CLua) {
    #expect(clua.sandboxType == "ClangTarget")
    #expect(clua.sandboxSources == Set(sandbox))
    #expect(clua.sandboxDependencies == ["CLua"])
  }

  @Test(.enabled(if: canRun, "needs `swift` on PATH"))
  func whatFetchLuaLaysOutBuildsTheSameWithoutAWarning() throws {
    let clua = try Self.describe(lua: Self.library + Self.headers + ["lua.c", ".dwell-lua"])
    #expect(clua.moduleType == "ClangTarget")
    #expect(clua.sources == Set(Self.library.map { "lua/" + $0 }))
    #expect(clua.warnings == [])
    Self.expectTheSandbox(clua)
  }

  @Test(.enabled(if: canRun, "needs `swift` on PATH"))
  func anEmptyFolderOrDwellLuaSystemIsTheSystemLibrary() throws {
    for clua in [try Self.describe(lua: []), try Self.describe(lua: Self.library + Self.headers, mode: "system")] {
      #expect(clua.moduleType == "SystemLibraryTarget")
      Self.expectTheSandbox(clua)
    }
  }

  /// The lists above are the real release's: its C files are the library and `lua.c`.
  @Test(.enabled(if: hasRealSources, "Sources/CLua/lua is empty (scripts/fetch-lua fills it)"))
  func theRealSourcesAreTheLibraryAndTheLuaProgram() throws {
    let lua = Self.root.appendingPathComponent("Sources/CLua/lua")
    let files = try FileManager.default.contentsOfDirectory(atPath: lua.path)
    let programs = ["lua.c", "luac.c", "ltests.c", "onelua.c"]
    #expect(Set(files.filter { $0.hasSuffix(".c") && !programs.contains($0) }) == Set(Self.library))
    #expect(Set(files.filter { $0.hasSuffix(".h") && $0 != "ltests.h" }) == Set(Self.headers))
  }
}
