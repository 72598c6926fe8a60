// SwiftUI API DwellSwiftUI's window probe uses that ../shared/apple-sdk-stubs lacks, copied
// from Apple's documentation. Compiled into the SwiftUI stub module by `check`.

/// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext
/// `@MainActor @preconcurrency struct UIViewRepresentableContext<Representable> where Representable : UIViewRepresentable`
@MainActor @preconcurrency
public struct UIViewRepresentableContext<Representable: UIViewRepresentable> {}

/// https://developer.apple.com/documentation/swiftui/uiviewrepresentable
/// `@MainActor @preconcurrency protocol UIViewRepresentable : View where Self.Body == Never`
/// with `makeUIView(context:)`, `updateUIView(_:context:)` (both `@MainActor @preconcurrency`)
/// and `typealias Context = UIViewRepresentableContext<Self>`.
@MainActor @preconcurrency
public protocol UIViewRepresentable: View where Body == Never {
  associatedtype UIViewType: UIView
  @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType
  @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)
  typealias Context = UIViewRepresentableContext<Self>
}
extension UIViewRepresentable where Body == Never {
  public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/alignment
/// `@frozen struct Alignment` (Equatable, Sendable); only `center` is declared here.
@frozen public struct Alignment: Equatable, Sendable {
  public static let center = Alignment()
}

extension View {
  /// https://developer.apple.com/documentation/swiftui/view/background(alignment:content:)
  /// `nonisolated func background<V>(alignment: Alignment = .center, @ContentBuilder content: () -> V) -> some View where V : View`
  /// (iOS 15.0+). The SDKs before `ContentBuilder` spell the builder `@ViewBuilder`, as here;
  /// returns the concrete `ModifiedContent` instead of `some View`, as the stub's other
  /// modifiers do.
  @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
  nonisolated public func background<V: View>(
    alignment: Alignment = .center, @ViewBuilder content: () -> V
  ) -> ModifiedContent<Self, EmptyModifier> { fatalError() }
}
