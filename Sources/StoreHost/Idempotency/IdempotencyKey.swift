import COpenSSL
import HTTP

/// The `Idempotency-Key` request header: a client's name for one actions request, so that
/// sending it again (after a lost answer, a restart, a timeout) applies it at most once.
enum IdempotencyKey {
  static let headerName = "Idempotency-Key"
  /// Longest key accepted; a UUID takes 36 characters.
  static let maxLength = 64

  /// The key `request` carries (surrounding double quotes removed), or `nil` without one.
  ///
  /// - Throws: 400 `invalid_idempotency_key` for an empty, long or oddly spelled key.
  static func of(_ request: Request) throws(HTTPError) -> String? {
    guard var key = request.headers[headerName] else { return nil }
    if key.count >= 2 && key.hasPrefix("\"") && key.hasSuffix("\"") { key = String(key.dropFirst().dropLast()) }
    guard (1...maxLength).contains(key.utf8.count), key.utf8.allSatisfy(isKeyByte) else {
      throw .invalidIdempotencyKey(maxLength: maxLength)
    }
    return key
  }

  /// A new key for a request forwarded without one, so the owner remembers its answer and
  /// the forwarding process may send it again when the owner fails, applying it once.
  static func generated() -> String {
    "storehost-forward:" + Base64URL.encode(SecureRandom.bytes(16))
  }

  /// The SHA-256 of `body`, base64url: what tells a repeat from another request.
  static func digest(_ body: [UInt8]) -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    let succeeded = body.withUnsafeBytes { body in
      digest.withUnsafeMutableBytes { output in
        EVP_Digest(
          body.baseAddress, body.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, EVP_sha256(), nil)
      }
    }
    precondition(succeeded == 1, "OpenSSL SHA-256 failed")
    return Base64URL.encode(digest)
  }

  private static func isKeyByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      "-_.:~+/=".utf8.contains(byte)
    }
  }
}
