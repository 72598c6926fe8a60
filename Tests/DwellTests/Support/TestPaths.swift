// Where the tests find the package's files: one place that knows this file's depth in the tree.
import Foundation

enum TestPaths {
  /// `Tests/DwellTests`, the folder of the test target (its data folders `Conformance` and
  /// `UIKitTraces` are inside it).
  static let testTarget = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // DwellTests

  /// The package's root folder, where `Package.swift`, `rules` and `examples` are.
  static let packageRoot =
    testTarget
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
}
