import Glibc

/// One JSON line per response on stderr, for when ``ServerConfiguration/accessLog`` is on.
enum AccessLog {
  static func write(method: String, path: String, status: Int, bytes: Int, duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    let line = "{\"method\":\(JSONErrorBody.quoted(method)),\"path\":\(JSONErrorBody.quoted(path)),"
      + "\"status\":\(status),\"bytes\":\(bytes),\"duration_ms\":\((milliseconds * 1000).rounded() / 1000)}\n"
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
  }
}
