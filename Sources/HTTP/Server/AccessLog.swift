import Glibc

/// One JSON line per response on stderr, for when ``ServerConfiguration/accessLog`` is on.
enum AccessLog {
  static func write(method: String, path: String, status: Int, bytes: Int, duration: Duration) {
    var line = Array(self.line(method: method, path: path, status: status, bytes: bytes, duration: duration).utf8)
    _ = line.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
  }

  /// `{"method":…,"path":…,"status":…,"bytes":…,"duration_ms":…}` and a newline.
  static func line(method: String, path: String, status: Int, bytes: Int, duration: Duration) -> String {
    let microseconds = duration.secondsValue * 1_000_000
    return "{\"method\":\(JSONErrorBody.quoted(method)),\"path\":\(JSONErrorBody.quoted(path)),"
      + "\"status\":\(status),\"bytes\":\(bytes),\"duration_ms\":\(microseconds.rounded() / 1000)}\n"
  }
}
