import ComposableArchitecture
import ComposableTesting
import Testing

private enum Destination: Equatable {
  case counter(Counter.State)
  case fact(String)
}

@Test
func presentationStateCaseSubscript() {
  var destination = PresentationState<Destination>(wrappedValue: .counter(Counter.State()))
  destination[case: /Destination.counter]?.count += 1
  #expect(destination.wrappedValue == .counter(Counter.State(count: 1)))
  #expect(destination[case: /Destination.fact] == nil)

  destination[case: /Destination.counter] = nil
  #expect(destination.wrappedValue == nil)
}

@Test
func stackStateIDAndCaseSubscript() {
  var path = StackState<Destination>()
  path.append(.counter(Counter.State()))
  path.append(.fact("A fact"))
  path[id: 0, case: /Destination.counter]?.count = 2
  #expect(path[id: 0] == .counter(Counter.State(count: 2)))
  #expect(path[id: 1, case: /Destination.fact] == "A fact")
  #expect(path[id: 1, case: /Destination.counter] == nil)

  path[id: 1, case: /Destination.fact] = nil
  #expect(path.ids == [0])
}

@Test
func changingAnUnrelatedCaseIsAnIssue() {
  var destination = PresentationState<Destination>(wrappedValue: .counter(Counter.State()))
  var path = StackState<Destination>([.counter(Counter.State())])
  withKnownIssue {
    destination[case: /Destination.fact] = nil
  } matching: { $0.description.hasSuffix(#"Can't modify unrelated case "counter""#) }
  withKnownIssue {
    path[id: 0, case: /Destination.fact]?.append("!")
  } matching: { $0.description.hasSuffix(#"Can't modify unrelated case "counter""#) }
  #expect(destination.wrappedValue == .counter(Counter.State()))
  #expect(Array(path) == [.counter(Counter.State())])
}
