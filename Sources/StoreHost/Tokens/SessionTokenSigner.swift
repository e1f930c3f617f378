import COpenSSL
import Synchronization

/// Issues and verifies session tokens, so a request's token is checked without any lookup.
///
/// A token is base64url (no padding) of `0x01 ‖ nonce ‖ session id ‖ HMAC-SHA256`, where the
/// nonce is 128 random bits and the MAC covers everything before it. A token therefore names
/// exactly one session and cannot be forged or moved to another session without the secret.
///
/// ```swift
/// let signer = try SessionTokenSigner(secret: SessionSecret.loadOrCreate(inDirectory: ".storehost"))
/// let token = signer.issue(sessionID: id)
/// signer.verify(token)  // id
/// ```
public struct SessionTokenSigner: Sendable {
  /// The shortest secret accepted, in bytes: the output size of SHA-256.
  public static let minimumSecretLength = 32

  private static let formatVersion: UInt8 = 1
  private static let nonceLength = 16
  private static let macLength = 32

  /// The current secret's keys, which sign, then the previous secret's, which only verify.
  private let keys: [SigningKeys]
  /// Tokens this signer verified lately: a session's requests repeat its token.
  private let verified = VerifiedTokens()

  /// - Parameters:
  ///   - secret: At least ``minimumSecretLength`` random bytes; everything issued is signed
  ///     with it.
  ///   - previousSecret: A secret being rotated out, also at least ``minimumSecretLength``
  ///     bytes: what it signed is still accepted, so a cluster can change its secret one
  ///     process at a time.
  public init(secret: [UInt8], previousSecret: [UInt8]? = nil) throws(SessionTokenSignerError) {
    var keys: [SigningKeys] = []
    for secret in [secret] + (previousSecret.map { [$0] } ?? []) {
      guard secret.count >= Self.minimumSecretLength else {
        throw .secretTooShort(length: secret.count, minimum: Self.minimumSecretLength)
      }
      keys.append(SigningKeys(secret: secret))
    }
    self.keys = keys
  }

  /// A new token for `sessionID`; every call gives a different token.
  public func issue(sessionID: SessionID) -> String {
    var bytes = [Self.formatVersion]
    bytes += SecureRandom.bytes(Self.nonceLength)
    bytes += Array(sessionID.rawValue.utf8)
    bytes += mac(bytes[...])
    return Base64URL.encode(bytes)
  }

  /// The session `token` was issued for, or `nil` when it is malformed or its MAC is wrong.
  /// The MAC is compared in constant time; a token verified lately is found without it.
  public func verify(_ token: String) -> SessionID? {
    if let sessionID = verified.session(of: token) { return sessionID }
    guard let signed = signedBytes(of: token, format: Self.formatVersion, headerLength: Self.nonceLength),
      macMatches(signed),
      let sessionID = SessionID(String(decoding: signed.bytes.dropFirst(1 + Self.nonceLength), as: UTF8.self))
    else { return nil }
    verified.insert(token, naming: sessionID)
    return sessionID
  }

  /// Whether `token` is a valid token for `sessionID` (and not for some other session).
  public func verify(_ token: String, for sessionID: SessionID) -> Bool {
    verify(token) == sessionID
  }

  /// The MAC of `message` with the current secret.
  func mac(_ message: ArraySlice<UInt8>) -> [UInt8] { keys[0].tokens.mac(message) }

  /// The HMAC-SHA256 of a forwarded request's description, with the current forwarding key.
  func forwardingMAC(_ message: [UInt8]) -> [UInt8] { keys[0].forwarding.mac(message[...]) }

  /// Whether `given` is the forwarding MAC of `message` under either secret, compared in
  /// constant time.
  func forwardingMACMatches(_ message: [UInt8], _ given: [UInt8]) -> Bool {
    keys.contains { constantTimeEqual($0.forwarding.mac(message[...])[...], given[...]) }
  }

  /// `text` decoded and cut into what the MAC covers and the MAC, when its first byte is
  /// `format` (a session token's, or another kind's) and it has room for `headerLength`
  /// bytes after that byte, an id of at least one byte, and the MAC.
  func signedBytes(of text: String, format: UInt8, headerLength: Int) -> SignedBytes? {
    let longest = 1 + headerLength + SessionID.maxLength + Self.macLength
    guard text.utf8.count <= (longest * 4 + 2) / 3, let bytes = Base64URL.decode(text),
      bytes.count > 1 + headerLength + Self.macLength, bytes[0] == format
    else { return nil }
    return SignedBytes(bytes: bytes.dropLast(Self.macLength), mac: bytes.suffix(Self.macLength))
  }

  /// Whether `signed` carries the MAC of its bytes under either secret, compared in
  /// constant time.
  func macMatches(_ signed: SignedBytes) -> Bool {
    keys.contains { constantTimeEqual($0.tokens.mac(signed.bytes)[...], signed.mac) }
  }

  /// The two parts of a decoded token.
  struct SignedBytes {
    /// Everything the MAC covers: the format byte, its header and the session id.
    let bytes: ArraySlice<UInt8>
    let mac: ArraySlice<UInt8>
  }
}

/// The tokens a signer verified lately, with the session each names, so the requests of a
/// session skip the MAC of a token already checked. Holds at most ``capacity`` tokens (about
/// 150 KB), and starts over when full.
private final class VerifiedTokens: Sendable {
  static let capacity = 1024
  private let sessions = Mutex<[String: SessionID]>([:])

  func session(of token: String) -> SessionID? {
    sessions.withLock { $0[token] }
  }

  func insert(_ token: String, naming sessionID: SessionID) {
    sessions.withLock { sessions in
      if sessions.count >= Self.capacity { sessions.removeAll(keepingCapacity: true) }
      sessions[token] = sessionID
    }
  }
}

/// The keys derived from one secret.
private struct SigningKeys: Sendable {
  let tokens: HMACContexts
  /// Keyed with a key derived from the secret for one other use: signing the requests one
  /// process of a cluster forwards to another (``ForwardingSignature``), so no token MAC can
  /// ever pass for a forwarding signature, nor the other way round.
  let forwarding: HMACContexts

  init(secret: [UInt8]) {
    tokens = HMACContexts(key: secret)
    forwarding = HMACContexts(key: tokens.mac(Array("storehost forwarded request v1".utf8)[...]))
  }
}

/// Whether two byte strings are equal, in time that depends on their lengths only.
func constantTimeEqual(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Bool {
  guard first.count == second.count else { return false }
  return first.withUnsafeBytes { first in
    second.withUnsafeBytes { second in CRYPTO_memcmp(first.baseAddress, second.baseAddress, first.count) == 0 }
  }
}

/// HMAC-SHA256 contexts keyed once with a secret and reused, one per thread computing at a
/// time: setting a key up costs more than the MAC of a token.
private final class HMACContexts: Sendable {
  /// An `EVP_MAC_CTX *`, used by one thread at a time.
  private struct Context: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  private let key: [UInt8]
  private let idle = Mutex<[Context]>([])

  init(key: [UInt8]) { self.key = key }

  deinit {
    for context in idle.withLock({ $0 }) { EVP_MAC_CTX_free(context.pointer) }
  }

  func mac(_ message: ArraySlice<UInt8>) -> [UInt8] {
    let context = idle.withLock { $0.popLast() } ?? makeContext()
    defer { idle.withLock { $0.append(context) } }
    var output = [UInt8](repeating: 0, count: 32)
    let succeeded = message.withUnsafeBytes { message in
      output.withUnsafeMutableBytes { output in
        copenssl_hmac_sha256(
          context.pointer, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
          output.baseAddress?.assumingMemoryBound(to: UInt8.self))
      }
    }
    precondition(succeeded == 1, "OpenSSL HMAC-SHA256 failed")
    return output
  }

  private func makeContext() -> Context {
    let pointer = key.withUnsafeBytes {
      copenssl_hmac_sha256_new($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count)
    }
    guard let pointer else { preconditionFailure("OpenSSL has no HMAC-SHA256") }
    return Context(pointer: pointer)
  }
}

/// Why a ``SessionTokenSigner`` cannot be created.
public enum SessionTokenSignerError: Error, Equatable, CustomStringConvertible {
  case secretTooShort(length: Int, minimum: Int)

  public var description: String {
    switch self {
    case .secretTooShort(let length, let minimum):
      "the session token secret has \(length) bytes; it needs at least \(minimum)"
    }
  }
}
