// Not Apple SDK API: the accessor SwiftPM and Xcode generate for a package target that has
// `resources:` (resource_bundle_accessor.swift, `extension Foundation.Bundle { static let
// module: Bundle }`), internal to that target. `check` compiles the example's AppModule
// target (resources: [.copy("rules")]) without SwiftPM, so nothing generates it; it is
// declared here, with the same use-site type.
// https://developer.apple.com/documentation/xcode/bundling-resources-with-a-swift-package
// ("access the resource bundle with Bundle.module").
extension Bundle {
  public static var module: Bundle { .main }
}
