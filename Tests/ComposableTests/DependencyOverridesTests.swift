import Testing

@testable import Composable

@Suite struct DependencyOverridesTests {
  private let keys: [ObjectIdentifier] = [
    ObjectIdentifier(Int.self), ObjectIdentifier(String.self), ObjectIdentifier(Double.self),
    ObjectIdentifier(Bool.self), ObjectIdentifier(UInt8.self), ObjectIdentifier(Int16.self),
    ObjectIdentifier(Float.self), ObjectIdentifier(Character.self),
  ]

  /// A small deterministic generator, so a failure repeats.
  private struct Steps: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
  }

  @Test func setsReplacesAndRemovesAsADictionaryWould() {
    var overrides = DependencyOverrides()
    var model: [ObjectIdentifier: Int] = [:]
    var steps = Steps(state: 7)
    for step in 0..<500 {
      let key = keys.randomElement(using: &steps)!
      if Int.random(in: 0..<4, using: &steps) == 0 {
        overrides[key] = nil
        model[key] = nil
      } else {
        overrides[key] = step
        model[key] = step
      }
      for key in keys {
        #expect(overrides[key] as? Int == model[key], "step \(step)")
      }
    }
  }

  @Test func aCopyKeepsItsOverridesWhenTheOriginalChanges() {
    var base = DependencyOverrides()
    base[keys[0]] = "base 0"
    base[keys[1]] = "base 1"
    let copy = base
    base[keys[1]] = "other 1"
    base[keys[2]] = "other 2"
    #expect(base[keys[0]] as? String == "base 0")
    #expect(base[keys[1]] as? String == "other 1")
    #expect(base[keys[2]] as? String == "other 2")
    #expect(copy[keys[1]] as? String == "base 1")
    #expect(copy[keys[2]] == nil)
  }
}
