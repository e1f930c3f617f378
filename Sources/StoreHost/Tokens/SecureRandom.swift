import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's `RAND_bytes`.
enum SecureRandom {
  /// `count` random bytes. OpenSSL failing to seed is unrecoverable for a server handing out
  /// secrets, so it stops the process rather than returning guessable bytes.
  static func bytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
    precondition(status == 1, "RAND_bytes failed: OpenSSL cannot produce secure random bytes")
    return bytes
  }
}
