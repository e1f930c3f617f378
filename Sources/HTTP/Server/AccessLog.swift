import Glibc

/// One JSON line per response on stderr, for when ``ServerConfiguration/accessLog`` is on.
enum AccessLog {
  static func write(method: String, path: String, status: Int, bytes: Int, duration: Duration) {
    var line = Array(self.line(method: method, path: path, status: status, bytes: bytes, duration: duration).utf8)
    _ = line.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
  }

  /// `{"method":…,"path":…,"status":…,"bytes":…,"duration_ms":…}` and a newline.
  static func line(method: String, path: String, status: Int, bytes: Int, duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = (Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 1000
    return "{\"method\":\(JSONErrorBody.quoted(method)),\"path\":\(JSONErrorBody.quoted(path)),"
      + "\"status\":\(status),\"bytes\":\(bytes),\"duration_ms\":\(milliseconds.rounded() / 1000)}\n"
  }
}
