// swift-tools-version: 5.9
// An iOS app embedding Dwell, as a Swift Playgrounds app package: open this folder in
// Xcode (File > Open...) or Swift Playgrounds and run it on a simulator or device.
// It depends on the Dwell package two folders up; Lua comes from a CLua package you
// provide (see the DocC article "Providing Lua 5.4").
import AppleProductTypes
import PackageDescription

let package = Package(
  name: "LearningApp",
  platforms: [.iOS("18.0")],
  products: [
    .iOSApplication(
      name: "LearningApp",
      targets: ["AppModule"],
      bundleIdentifier: "org.dwell.example.LearningApp",
      displayVersion: "1.0",
      bundleVersion: "1",
      appIcon: .placeholder(icon: .book),
      accentColor: .presetColor(.orange),
      supportedDeviceFamilies: [.pad, .phone],
      supportedInterfaceOrientations: [.portrait, .landscapeRight, .landscapeLeft]
    )
  ],
  dependencies: [.package(name: "Dwell", path: "../..")],
  targets: [
    .executableTarget(
      name: "AppModule",
      dependencies: [
        .product(name: "Dwell", package: "Dwell"),
        .product(name: "DwellLua", package: "Dwell"),
        .product(name: "DwellUIKit", package: "Dwell"),
        .product(name: "DwellSwiftUI", package: "Dwell"),
      ],
      path: ".",
      exclude: ["README.md"],
      resources: [.copy("rules")]
    )
  ]
)
