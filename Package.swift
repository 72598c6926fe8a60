// swift-tools-version: 6.2
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Lua 5.4: built from the sources in `Sources/CLua/lua` when they are there (the bundled
/// mode, what iOS apps need), else the system library (pkg-config `lua5.4`). The sandbox's C
/// (allocator cap, instruction budget, bounded library functions, allow-list) is the
/// `CLuaSandbox` target on top of either.
/// That folder is a git submodule of lua/lua.git at a release tag, which SwiftPM and Xcode
/// check out with the package; `scripts/fetch-lua` lays the same release's verified tarball
/// out the same way (Lua's C files at the folder's root) where the submodule cannot be
/// fetched. `DWELL_LUA=system` or `DWELL_LUA=bundled` forces a mode (SwiftPM caches a
/// manifest by its text and environment, not by other files).
let luaFolder = Context.packageDirectory + "/Sources/CLua/lua"
let bundledLua =
  Context.environment["DWELL_LUA"].map { $0 == "bundled" }
  ?? FileManager.default.fileExists(atPath: luaFolder + "/lua.h")
/// What the folder holds besides the library: the `lua` and `luac` programs, the test library
/// (`ltests.c`), the one-file build (`onelua.c`, which includes every other C file), the test
/// suite, the manual, build scripts and the readme. Only those present are excluded: SwiftPM
/// warns about an exclude that does not exist, and what `scripts/fetch-lua` lays out lacks most.
let notTheLuaLibrary = ["lua.c", "luac.c", "ltests.c", "onelua.c", "testes", "manual", "all", "makefile", "README.md"]
  .filter { FileManager.default.fileExists(atPath: luaFolder + "/" + $0) }.map { "lua/" + $0 }
let lua: Target =
  bundledLua
  ? .target(
    name: "CLua", path: "Sources/CLua", exclude: notTheLuaLibrary, sources: ["lua"], publicHeadersPath: "include",
    cSettings: [
      .define("LUA_USE_POSIX", .when(platforms: [.linux])), .define("LUA_USE_MACOSX", .when(platforms: [.macOS])),
      .define("LUA_USE_IOS", .when(platforms: [.iOS, .tvOS, .watchOS, .visionOS])),
    ])
  : .systemLibrary(name: "CLua", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])])

let package = Package(
  name: "Dwell",
  platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Dwell", targets: ["Dwell"]),
    .library(name: "DwellTesting", targets: ["DwellTesting"]),
    .library(name: "DwellLua", targets: ["DwellLua"]),
    .library(name: "DwellUIKit", targets: ["DwellUIKit"]),
    .library(name: "DwellSwiftUI", targets: ["DwellSwiftUI"]),
    .executable(name: "dwell", targets: ["dwell"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
    ),
    // Ed25519 for signed rule packs where CryptoKit is missing (Linux).
    .systemLibrary(name: "CSodium", providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
    lua,
    // The module map and header beside the C files, as the system libraries' are (and where
    // tools that read Sources/*/module.modulemap find them).
    .target(name: "CLuaSandbox", dependencies: ["CLua"], publicHeadersPath: "."),
    .target(
      name: "Dwell", dependencies: ["CSQLite", .target(name: "CSodium", condition: .when(platforms: [.linux]))], resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: strict),
    .target(name: "DwellUIKit", dependencies: ["Dwell"], swiftSettings: strict),
    .target(name: "DwellSwiftUI", dependencies: ["Dwell"], swiftSettings: strict),
    .target(
      name: "DwellLua", dependencies: ["Dwell", "CLuaSandbox"], resources: [.copy("Sandbox/prelude.lua")],
      swiftSettings: strict),
    .target(name: "DwellHarness", dependencies: ["Dwell", "DwellLua", "DwellTesting"], swiftSettings: strict),
    .target(name: "DwellTesting", dependencies: ["Dwell"], swiftSettings: strict),
    .target(name: "DwellBalance", dependencies: ["Dwell", "DwellLua", "DwellTesting"], swiftSettings: strict),
    .executableTarget(
      name: "dwell", dependencies: ["Dwell", "DwellLua", "DwellTesting", "DwellHarness", "DwellBalance"], path: "Sources/DwellCLI",
      swiftSettings: strict),
    .executableTarget(
      name: "dwell-bench", dependencies: ["Dwell", "DwellLua", "DwellTesting", "DwellBalance", "CSQLite"], swiftSettings: strict),
    .executableTarget(
      name: "dwell-fuzz", dependencies: ["Dwell", "DwellLua", "DwellTesting"], swiftSettings: strict),
    .executableTarget(
      name: "dwell-example-host", dependencies: ["Dwell", "DwellLua", "DwellTesting"], path: "examples/terminal-host",
      exclude: ["rules"], swiftSettings: strict),
    .testTarget(
      name: "DwellTests", dependencies: ["Dwell", "DwellLua", "DwellTesting", "DwellHarness", "DwellBalance"],
      exclude: ["Conformance", "UIKitTraces"], swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
