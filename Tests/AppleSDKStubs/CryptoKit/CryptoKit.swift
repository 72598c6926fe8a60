// CryptoKit as Dwell's rule pack signatures use it (Sources/Dwell/API/PackSignature.swift),
// each declaration copied from Apple's documentation (iOS 13.0+, macOS 10.15+):
//
//   enum Curve25519                                          documentation/cryptokit/curve25519
//   enum Curve25519.Signing                                  .../curve25519/signing (Sendable)
//   struct Curve25519.Signing.PublicKey                      .../signing/publickey (Sendable)
//     init<D>(rawRepresentation: D) throws where D : ContiguousBytes
//     var rawRepresentation: Data { get }
//     func isValidSignature<S, D>(_ signature: S, for data: D) -> Bool
//       where S : DataProtocol, D : DataProtocol
//   struct Curve25519.Signing.PrivateKey                     .../signing/privatekey (Sendable)
//     init()
//     init<D>(rawRepresentation data: D) throws where D : ContiguousBytes
//     var rawRepresentation: Data { get }
//     var publicKey: Curve25519.Signing.PublicKey { get }
//     func signature<D>(for data: D) throws -> Data where D : DataProtocol
//
// Bodies do not matter: nothing here is run. Compiled as the module CryptoKit by
// Tests/AppleSDKStubs/check-cryptokit (../shared/apple-sdk-stubs/check builds only the
// ObjectiveC, UIKit and SwiftUI stubs, and compiles the engine without them).
public import Foundation

/// https://developer.apple.com/documentation/cryptokit/curve25519
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public enum Curve25519: Sendable {
  /// https://developer.apple.com/documentation/cryptokit/curve25519/signing
  public enum Signing: Sendable {
    /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/publickey
    public struct PublicKey: Sendable {
      /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/publickey/init(rawrepresentation:)
      public init<D>(rawRepresentation: D) throws where D: ContiguousBytes {}

      /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/publickey/rawrepresentation
      public var rawRepresentation: Data { Data() }

      /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/publickey/isvalidsignature(_:for:)
      public func isValidSignature<S, D>(_ signature: S, for data: D) -> Bool
      where S: DataProtocol, D: DataProtocol { false }

      /// Not Apple's: how the private key stub makes its public key.
      fileprivate init() {}
    }

    /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/privatekey
    public struct PrivateKey: Sendable {
      /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/privatekey/init()
      public init() {}

      /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/privatekey/init(rawrepresentation:)
      public init<D>(rawRepresentation data: D) throws where D: ContiguousBytes {}

      /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/privatekey/rawrepresentation
      public var rawRepresentation: Data { Data() }

      /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/privatekey/publickey
      public var publicKey: Curve25519.Signing.PublicKey { PublicKey() }

      /// https://developer.apple.com/documentation/cryptokit/curve25519/signing/privatekey/signature(for:)
      public func signature<D>(for data: D) throws -> Data where D: DataProtocol { Data() }
    }
  }
}
