import CSystemShim
import Glibc

/// A failed system call: which call and the `errno` it set.
public struct SystemError: Error, CustomStringConvertible, Sendable {
  /// The name of the call, such as `"accept4"`.
  public var call: String
  /// The `errno` value.
  public var errno: Int32

  public var description: String { "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// The outcome of a non-blocking call: it did its work, or it would have had to wait.
enum IOResult<Value> {
  case processed(Value)
  case wouldBlock
}

/// Runs one system call: retries `EINTR`, maps `EAGAIN`/`EWOULDBLOCK` to ``IOResult/wouldBlock``,
/// and throws ``SystemError`` for any other failure (a negative return value).
@inline(__always)
func syscall<Value: BinaryInteger>(_ call: String, _ body: () -> Value) throws(SystemError) -> IOResult<Value> {
  while true {
    let result = body()
    if result >= 0 { return .processed(result) }
    let code = csystem_errno()
    switch code {
    case EINTR: continue
    case EAGAIN, EWOULDBLOCK: return .wouldBlock
    default: throw SystemError(call: call, errno: code)
    }
  }
}

/// Runs a system call that must not block: like ``syscall(_:_:)`` but treats would-block as an error.
@inline(__always)
@discardableResult
func syscallChecked<Value: BinaryInteger>(_ call: String, _ body: () -> Value) throws(SystemError) -> Value {
  switch try syscall(call, body) {
  case .processed(let value): return value
  case .wouldBlock: throw SystemError(call: call, errno: EAGAIN)
  }
}
