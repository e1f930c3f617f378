/// Times `operation` over `iterations` runs, `rounds` times, and returns the best
/// nanoseconds per run (the least disturbed round).
func nanosecondsPerOperation(
  iterations: Int, rounds: Int = 5, _ operation: () -> Void
) -> Double {
  let clock = ContinuousClock()
  for _ in 0..<(iterations / 10) { operation() }
  var best = Double.infinity
  for _ in 0..<rounds {
    let elapsed = clock.measure {
      for _ in 0..<iterations { operation() }
    }
    best = min(best, elapsed.nanoseconds / Double(iterations))
  }
  return best
}

extension Duration {
  var nanoseconds: Double {
    Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
  }
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {}

/// Prints one result row.
func report(_ name: String, _ value: Double, unit: String = "ns/op", target: String = "") {
  let number = value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
  let row = "| \(name) | \(number) \(unit) | \(target) |"
  print(row)
}

import Foundation
