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
    .executable(name: "dwell", targets: ["dwell"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
    ),
    .target(name: "Dwell", dependencies: ["CSQLite"], swiftSettings: strict),
    .target(name: "DwellTesting", dependencies: ["Dwell"], swiftSettings: strict),
    .executableTarget(name: "dwell", dependencies: ["Dwell", "DwellTesting"], swiftSettings: strict),
    .testTarget(name: "DwellTests", dependencies: ["Dwell", "DwellTesting"], swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
