// SwiftUI API DwellSwiftUI uses that ../shared/apple-sdk-stubs lacks, copied from Apple's
// documentation. Compiled into the SwiftUI stub module by `check`.

extension View {
  /// https://developer.apple.com/documentation/swiftui/view/onscrollvisibilitychange(threshold:_:)
  /// `nonisolated func onScrollVisibilityChange(threshold: Double = 0.5, _ action: @escaping (Bool) -> Void) -> some View`
  /// (iOS 18.0+, macOS 15.0+, tvOS 18.0+, watchOS 11.0+, visionOS 2.0+). Returns the concrete
  /// `ModifiedContent` instead of `some View`, as the stub's other modifiers do.
  @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  nonisolated public func onScrollVisibilityChange(
    threshold: Double = 0.5, _ action: @escaping (Bool) -> Void
  ) -> ModifiedContent<Self, EmptyModifier> { fatalError() }
}
