// swift-tools-version: 5.9
// An iOS app embedding Dwell, as a Swift Playgrounds app package. It depends on the Dwell
// package two folders up, which builds Lua from source once `scripts/fetch-lua` has been
// run there (the bundled mode; see README.md beside this file and the DocC article
// "Providing Lua 5.4"). Then open this folder in Xcode and run it on a simulator or device.
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
