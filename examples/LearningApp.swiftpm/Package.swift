// swift-tools-version: 5.9
// An iOS app embedding Dwell, as a Swift Playgrounds app package. It depends on the Dwell
// checkout two folders up, which builds Lua from source from its git submodule
// Sources/CLua/lua (the bundled mode; see README.md beside this file and the DocC article
// "Providing Lua 5.4"): clone Dwell with --recursive (or run `git submodule update --init`
// there), then open this folder in Xcode 26 and run it on a simulator or device. An app of
// your own depends on Dwell with .package(url:from:) instead, and needs no step: Xcode
// checks the submodule out with the package.
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
