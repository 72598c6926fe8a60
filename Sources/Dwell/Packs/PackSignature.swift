package import Foundation

#if canImport(CryptoKit)
  internal import CryptoKit
#elseif canImport(CSodium)
  internal import CSodium
#endif

/// Ed25519 signatures of rule packs: CryptoKit on Apple platforms, libsodium (a maintained
/// system library) elsewhere. No cryptography is written here.
package enum PackSignature {
  /// The length of a raw Ed25519 public key.
  static let keyLength = 32
  /// The length of an Ed25519 signature.
  static let signatureLength = 64

  /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`.
  static func isValid(_ signature: Data, of message: Data, by publicKey: Data) -> Bool {
    guard signature.count == signatureLength, publicKey.count == keyLength else { return false }
    #if canImport(CryptoKit)
      guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
      return key.isValidSignature(signature, for: message)
    #elseif canImport(CSodium)
      guard sodium_init() >= 0 else { return false }
      let signature = [UInt8](signature)
      let key = [UInt8](publicKey)
      let message = [UInt8](message)
      return crypto_sign_verify_detached(signature, message, UInt64(message.count), key) == 0
    #else
      return false  // no Ed25519 implementation on this platform: every pack is refused
    #endif
  }

  /// A new key pair (raw 32-byte public key, and the private key's bytes), for tests and tools.
  package static func makeKeyPair() -> (publicKey: Data, privateKey: Data) {
    #if canImport(CryptoKit)
      let key = Curve25519.Signing.PrivateKey()
      return (key.publicKey.rawRepresentation, key.rawRepresentation)
    #elseif canImport(CSodium)
      _ = sodium_init()
      var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_publickeybytes()))
      var privateKey = [UInt8](repeating: 0, count: Int(crypto_sign_secretkeybytes()))
      _ = crypto_sign_keypair(&publicKey, &privateKey)
      return (Data(publicKey), Data(privateKey))
    #else
      return (Data(), Data())
    #endif
  }

  /// Signs `message` with a private key from ``makeKeyPair()`` (for tests and tools).
  package static func sign(_ message: Data, with privateKey: Data) -> Data {
    #if canImport(CryptoKit)
      guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: privateKey),
        let signature = try? key.signature(for: message)
      else { return Data() }
      return signature
    #elseif canImport(CSodium)
      guard privateKey.count == Int(crypto_sign_secretkeybytes()) else { return Data() }
      var signature = [UInt8](repeating: 0, count: signatureLength)
      var length: UInt64 = 0
      let message = [UInt8](message)
      let key = [UInt8](privateKey)
      _ = crypto_sign_detached(&signature, &length, message, UInt64(message.count), key)
      return Data(signature)
    #else
      return Data()
    #endif
  }
}
