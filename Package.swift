// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

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
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
    ),
    .target(
      name: "Dwell", dependencies: ["CSQLite"], resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: strict),
    .target(name: "DwellUIKit", dependencies: ["Dwell"], swiftSettings: strict),
    .target(name: "DwellSwiftUI", dependencies: ["Dwell"], swiftSettings: strict),
    .target(
      name: "DwellLua", dependencies: ["Dwell", "CLua"], resources: [.copy("prelude.lua")], swiftSettings: strict),
    .target(name: "DwellHarness", dependencies: ["Dwell", "DwellLua", "DwellTesting"], swiftSettings: strict),
    .target(name: "DwellTesting", dependencies: ["Dwell"], swiftSettings: strict),
    .executableTarget(name: "dwell", dependencies: ["Dwell", "DwellLua", "DwellTesting", "DwellHarness"], swiftSettings: strict),
    .executableTarget(
      name: "dwell-bench", dependencies: ["Dwell", "DwellLua", "DwellTesting", "CSQLite"], swiftSettings: strict),
    .executableTarget(
      name: "dwell-fuzz", dependencies: ["Dwell", "DwellLua", "DwellTesting"], swiftSettings: strict),
    .executableTarget(
      name: "dwell-example-host", dependencies: ["Dwell", "DwellLua", "DwellTesting"], path: "examples/terminal-host",
      exclude: ["rules"], swiftSettings: strict),
    .testTarget(
      name: "DwellTests", dependencies: ["Dwell", "DwellLua", "DwellTesting", "DwellHarness"],
      exclude: ["Conformance"], swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
