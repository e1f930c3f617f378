import ComposableArchitecture
import Testing

@Suite struct NestedReducerConformanceTests {
  @Test func aFeatureNestedInATypeMayDeclareItsConformance() {
    let store = Store(initialState: Nesting.Inner.State()) { Nesting.Inner() }
    #expect(store.withState { $0 } == Nesting.Inner.State())
  }
}

/// A type nested in another: the compiler may offer it the conformance it declares itself.
private enum Nesting {
  @Reducer struct Inner: Reducer {}
}
