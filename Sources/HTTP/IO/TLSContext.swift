import COpenSSL

/// A TLS failure while loading the certificate or key.
public struct TLSError: Error, CustomStringConvertible, Sendable, Equatable {
  /// What failed, with OpenSSL's reason.
  public var description: String
}

/// An OpenSSL server context holding one certificate and key and offering one
/// ``TLSProfile``. OpenSSL allows creating sessions from one context on many threads at
/// once, and each session keeps its context alive for as long as it lives.
final class TLSContext: @unchecked Sendable {
  let context: OpaquePointer

  init(_ configuration: TLSConfiguration) throws(TLSError) {
    // Errors are queued per thread: start from an empty queue so the reason is this load's.
    ERR_clear_error()
    guard let context = SSL_CTX_new(TLS_server_method()) else { throw Self.error("SSL_CTX_new") }
    self.context = context
    let profile = configuration.profile
    guard copenssl_ctx_set_min_version(context, profile == .modern ? 1 : 0) == 1 else {
      throw Self.error("setting the lowest TLS version")
    }
    guard SSL_CTX_set_cipher_list(context, TLSProfile.tls12CipherSuites) == 1,
      SSL_CTX_set_ciphersuites(context, TLSProfile.tls13CipherSuites) == 1
    else { throw Self.error("setting the cipher suites") }
    guard copenssl_ctx_set_groups(context, TLSProfile.groups) == 1 else { throw Self.error("setting the groups") }
    _ = copenssl_ctx_set_server_options(context)
    _ = copenssl_ctx_set_partial_writes(context)
    guard SSL_CTX_use_certificate_chain_file(context, configuration.certificatePath) == 1 else {
      throw Self.error("loading certificate \(configuration.certificatePath)")
    }
    guard SSL_CTX_use_PrivateKey_file(context, configuration.privateKeyPath, SSL_FILETYPE_PEM) == 1 else {
      throw Self.error("loading private key \(configuration.privateKeyPath)")
    }
    guard SSL_CTX_check_private_key(context) == 1 else { throw Self.error("matching key and certificate") }
  }

  deinit { SSL_CTX_free(context) }

  /// A server-side session on the socket `fd`, or `nil` if OpenSSL cannot allocate one.
  func makeSession(fd: Int32) -> OpaquePointer? {
    guard let ssl = SSL_new(context) else { return nil }
    SSL_set_fd(ssl, fd)
    SSL_set_accept_state(ssl)
    return ssl
  }

  private static func error(_ what: String) -> TLSError {
    let code = ERR_get_error()
    ERR_clear_error()
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return TLSError(description: "TLS: \(what) failed: \(reason)")
  }
}
