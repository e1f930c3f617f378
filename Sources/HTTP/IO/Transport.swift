import COpenSSL
import CSystemShim
import Glibc

/// How a connection moves bytes: straight on the socket, or through an OpenSSL session.
enum Transport {
  case plain
  case tls(OpaquePointer)

  var isTLS: Bool {
    if case .tls = self { return true }
    return false
  }

  /// Whether the last TLS call that would block was waiting for the socket to be writable.
  var wantsWrite: Bool {
    if case .tls(let ssl) = self { return SSL_want(ssl) == SSL_WRITING }
    return false
  }

  /// Reads into `buffer`: `.processed(0)` means the peer closed. A plain socket is read
  /// with `recv`, which goes to the socket directly where `read` passes through the file
  /// layer first.
  func read(fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<Int> {
    switch self {
    case .plain:
      return try syscall("recv") { recv(fd, buffer.baseAddress, buffer.count, 0) }
    case .tls(let ssl):
      ERR_clear_error()
      let count = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
      if count > 0 { return .processed(Int(count)) }
      return try Self.tlsOutcome(ssl, count, call: "SSL_read")
    }
  }

  /// Writes from `bytes`, returning how many were taken.
  func write(fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> IOResult<Int> {
    switch self {
    case .plain:
      return try syscall("send") { send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    case .tls(let ssl):
      ERR_clear_error()
      let count = SSL_write(ssl, bytes.baseAddress, Int32(bytes.count))
      if count > 0 { return .processed(Int(count)) }
      switch try Self.tlsOutcome(ssl, count, call: "SSL_write") {
      case .processed: throw SystemError(call: "SSL_write", errno: EPIPE)
      case .wouldBlock: return .wouldBlock
      }
    }
  }

  /// Writes from `frames`, the first from `firstOffset` on: on a plain socket as many as
  /// one `sendmsg` takes (up to 64 frames; one frame with a plain `send`), through TLS the
  /// first. Returns how many bytes
  /// were taken.
  func write(fd: Int32, _ frames: [EventFrame], firstOffset: Int) throws(SystemError) -> IOResult<Int> {
    let first = frames[0].storage
    guard case .plain = self, frames.count > 1 else {
      return try write(fd: fd, UnsafeRawBufferPointer(start: first.base + firstOffset, count: first.count - firstOffset))
    }
    let count = min(frames.count, Self.framesPerWrite)
    return try withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors throws(SystemError) in
      for index in 0..<count {
        let storage = frames[index].storage
        let offset = index == 0 ? firstOffset : 0
        vectors[index] = iovec(iov_base: storage.base + offset, iov_len: storage.count - offset)
      }
      var message = msghdr()
      message.msg_iov = vectors.baseAddress
      message.msg_iovlen = count
      return try syscall("sendmsg") { sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
    }
  }

  private static let framesPerWrite = 64

  /// Writes `head` (which may be empty) and then `file`, on a plain socket: both in one
  /// `sendmsg` from memory, or the head with `MSG_MORE` and then the file with `sendfile`
  /// from its descriptor. Returns how many bytes were taken, head first.
  func write(fd: Int32, head: UnsafeRawBufferPointer, file: FileBody) throws(SystemError) -> IOResult<Int> {
    precondition(!isTLS, "a TLS connection writes file bodies through its output, a chunk at a time")
    switch file.source {
    case .memory(let storage):
      var vectors = (
        iovec(iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress), iov_len: head.count),
        iovec(iov_base: storage.base + file.range.lowerBound, iov_len: file.count)
      )
      return try withUnsafeMutableBytes(of: &vectors) { raw throws(SystemError) in
        var message = msghdr()
        let pointer = raw.baseAddress!.assumingMemoryBound(to: iovec.self)
        message.msg_iov = head.isEmpty ? pointer + 1 : pointer
        message.msg_iovlen = head.isEmpty ? 1 : 2
        return try syscall("sendmsg") { sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
      }
    case .descriptor(let open):
      if !head.isEmpty {
        return try syscall("send") { send(fd, head.baseAddress, head.count, Int32(MSG_NOSIGNAL | MSG_MORE)) }
      }
      var offset = off_t(file.range.lowerBound)
      let sent = try syscall("sendfile") { sendfile(fd, open.descriptor, &offset, min(file.count, 1 << 30)) }
      // A file that shrank since it was opened sends nothing more: the connection cannot
      // keep its promise of `Content-Length`.
      if case .processed(0) = sent { throw SystemError(call: "sendfile", errno: EIO) }
      return sent
    }
  }

  /// Ends the session (TLS close_notify) and frees it. The socket is closed by the caller.
  func shutdown() {
    if case .tls(let ssl) = self {
      ERR_clear_error()
      SSL_shutdown(ssl)
      SSL_free(ssl)
    }
  }

  private static func tlsOutcome(
    _ ssl: OpaquePointer, _ result: Int32, call: String
  ) throws(SystemError) -> IOResult<Int> {
    let code = SSL_get_error(ssl, result)
    switch code {
    case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return .wouldBlock
    case SSL_ERROR_ZERO_RETURN: return .processed(0)
    case SSL_ERROR_SYSCALL where csystem_errno() == EINTR: return .wouldBlock
    default:
      ERR_clear_error()
      throw SystemError(call: call, errno: code == SSL_ERROR_SYSCALL ? csystem_errno() : EPROTO)
    }
  }
}
