import Glibc

/// HTTPS for a server: a PEM certificate chain and private key, which TLS versions and
/// cipher suites are offered, and how a renewed certificate is picked up.
///
/// The pair is loaded at start, and loaded again, without a restart, on SIGHUP (while
/// ``HTTPServer/run()`` runs), on ``HTTPServer/reloadCertificate()``, and when either file
/// changes (looked at every ``reloadCheckInterval``). New connections get the new pair;
/// connections already open keep the one they began with. A pair that does not load or
/// whose key does not match is refused, and the one before it is still served.
public struct TLSConfiguration: Sendable {
  /// PEM file holding the certificate, then any intermediates.
  public var certificatePath: String
  /// PEM file holding the private key.
  public var privateKeyPath: String
  /// The TLS versions, cipher suites and key exchange groups offered. Default
  /// ``TLSProfile/intermediate``.
  public var profile: TLSProfile
  /// How often the server looks (`stat`, following symlinks) at the two files and loads the
  /// pair again if either changed: replaced, renamed over, rewritten, or a symlink moved, as
  /// ACME clients and mounted secrets do. Default 10 s; `nil` reloads only on SIGHUP and
  /// ``HTTPServer/reloadCertificate()``. A renewal that writes one file and then the other
  /// may be refused once in between (the key does not match yet), then taken at the next look.
  public var reloadCheckInterval: Duration? = .seconds(10)
  /// Told of each reload that SIGHUP or a change of the files started, on a thread of the
  /// server's. Default ``TLSReload/writeToStandardError(_:)``.
  public var onReload: @Sendable (TLSReload) -> Void = TLSReload.writeToStandardError

  /// HTTPS with the given certificate chain and key, offering `profile`.
  public init(certificatePath: String, privateKeyPath: String, profile: TLSProfile = .intermediate) {
    self.certificatePath = certificatePath
    self.privateKeyPath = privateKeyPath
    self.profile = profile
  }
}

/// The TLS versions, cipher suites and key exchange groups a server offers: Mozilla's
/// "Server Side TLS" configurations (version 5.7), whose names these are.
public enum TLSProfile: String, Sendable, CaseIterable {
  /// TLS 1.3, and TLS 1.2 with ECDHE key exchange and AEAD ciphers only (AES-GCM and
  /// ChaCha20-Poly1305, for ECDSA and RSA certificates); groups X25519, P-256 and P-384.
  /// Every browser of the last decade connects (Firefox 27, Chrome 31, Safari 9, Android
  /// 4.4.2, IE 11 on Windows 7, Java 8u31 and newer).
  case intermediate
  /// TLS 1.3 only, with the same groups. Leaves out older clients: the oldest that
  /// connect are Firefox 63, Chrome 70, Safari 12.1, Android 10, Java 11, OpenSSL 1.1.1.
  case modern

  /// The TLS 1.2 suites, OpenSSL's names, the client's preference first among them.
  static let tls12CipherSuites = [
    "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
    "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
    "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
  ].joined(separator: ":")
  /// The TLS 1.3 suites.
  static let tls13CipherSuites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"
  /// The key exchange groups, most preferred first.
  static let groups = "X25519:prime256v1:secp384r1"
}

/// What came of loading a server's certificate and key again.
public enum TLSReload: Sendable, Equatable {
  /// New connections get the pair now on disk.
  case reloaded(certificatePath: String)
  /// The pair on disk was refused; new connections still get the previous one.
  case refused(TLSError)

  /// Writes one JSON line on standard error: `{"level":"info","message":"TLS certificate
  /// reloaded",…}`, or at level `error` with the reason the pair was refused.
  @Sendable public static func writeToStandardError(_ reload: TLSReload) {
    var line = Array(reload.logLine.utf8)
    _ = line.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
  }

  /// The line ``writeToStandardError(_:)`` writes, newline included.
  var logLine: String {
    switch self {
    case .reloaded(let path):
      "{\"level\":\"info\",\"message\":\"TLS certificate reloaded\",\"certificate\":\(JSONErrorBody.quoted(path))}\n"
    case .refused(let error):
      "{\"level\":\"error\",\"message\":\"TLS certificate refused, the previous one is still served\","
        + "\"error\":\(JSONErrorBody.quoted(error.description))}\n"
    }
  }
}
