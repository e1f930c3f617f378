extension Duration {
  /// The duration in seconds, fractional.
  var secondsValue: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
