extension Request {
  /// The cookies the client sent (`Cookie: a=1; b=2`), in order; values as sent, with
  /// surrounding double quotes removed.
  public var cookies: [(name: String, value: String)] {
    headers.values("Cookie").flatMap { header in
      header.split(separator: ";").compactMap { pair -> (name: String, value: String)? in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let name = String(parts[0]).trimmingOWS()
        var value = String(parts[1]).trimmingOWS()
        if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") {
          value = String(value.dropFirst().dropLast())
        }
        return name.isEmpty ? nil : (name, value)
      }
    }
  }

  /// The value of the first cookie named `name`, or `nil`.
  public func cookie(_ name: String) -> String? { cookies.first { $0.name == name }?.value }
}
