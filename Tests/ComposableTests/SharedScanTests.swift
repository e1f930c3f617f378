import Testing

@testable import Composable

/// The shared values a store follows are found wherever a state keeps them, each once, and
/// only there.
@Suite struct SharedScanTests {
  private struct Leaf: Equatable {
    var name = "leaf"
    var count = 0
  }

  private struct Holder {
    var before = 1
    var shared: Shared<Int>
    var after = "x"
  }

  private enum Destination {
    case none
    case holder(Holder)
    case pair(Int, Shared<String>)
  }

  private struct Generic<Payload> {
    var payload: Payload
    var tag = 7
  }

  private final class Reference {
    let shared = Shared(5)
  }

  private struct Mirrored: CustomReflectable {
    var hidden: Shared<Int>
    var customMirror: Mirror { Mirror(self, children: ["shown": hidden]) }
  }

  private struct State {
    var leaf = Leaf()
    var direct: Shared<Int>
    var reader: SharedReader<Int>
    var nested: Holder
    var optional: Holder?
    var list: [Holder]
    var dictionary: [String: Shared<Int>]
    var destination: Destination
    var tuple: (Int, Shared<Int>)
    var generic: Generic<Shared<Int>>
    var existential: any Sendable
    var reference: Reference
    var mirrored: Mirrored
  }

  private func ids(_ values: [any SharedBoxHolder]) -> Set<ObjectIdentifier> {
    Set(values.map { ObjectIdentifier($0.sharedBox) })
  }

  @Test func findsEveryPlaceAStateKeepsSharedValues() {
    let values = (0..<9).map { Shared($0) }
    let text = Shared("a")
    let state = State(
      direct: values[0], reader: SharedReader(values[1]), nested: Holder(shared: values[2]),
      optional: Holder(shared: values[3]), list: [Holder(shared: values[4]), Holder(shared: values[0])],
      dictionary: ["k": values[5]], destination: .pair(1, text), tuple: (1, values[6]),
      generic: Generic(payload: values[7]), existential: Holder(shared: values[8]), reference: Reference(),
      mirrored: Mirrored(hidden: values[0]))
    let found = Set(SharedScan.boxes(in: state).map(ObjectIdentifier.init))
    #expect(found == ids(values + [text]))
    #expect(SharedScan.boxes(in: state).count == 10)
  }

  @Test func looksNeitherIntoClassesNorPastWhatTheStateHolds() {
    let one = Shared(1)
    let state = State(
      direct: one, reader: SharedReader(one), nested: Holder(shared: one), optional: nil, list: [],
      dictionary: [:], destination: .none, tuple: (1, one), generic: Generic(payload: one), existential: 3,
      reference: Reference(), mirrored: Mirrored(hidden: one))
    #expect(SharedScan.boxes(in: state).map(ObjectIdentifier.init) == [ObjectIdentifier(one.sharedBox)])
    #expect(SharedScan.boxes(in: Leaf()).isEmpty)
  }

  @Test func anEnumPayloadAndAValueOfUnknownTypeAreSearched() {
    let inner = Shared(2)
    let holder: Destination = .holder(Holder(shared: inner))
    #expect(SharedScan.boxes(in: holder).map(ObjectIdentifier.init) == [ObjectIdentifier(inner.sharedBox)])
    let erased: Any = Generic(payload: [inner])
    #expect(SharedScan.boxes(in: erased).map(ObjectIdentifier.init) == [ObjectIdentifier(inner.sharedBox)])
  }

  private enum Route: CasePathable {
    case list([Leaf])
    case detail(Leaf, Int)
    struct AllCasePaths {}
    static var allCasePaths: AllCasePaths { AllCasePaths() }
    static var _$casePayloadTypes: [Any.Type]? { [[Leaf].self, (Leaf, Int).self] }
  }

  private enum SharedRoute: CasePathable {
    case list([Leaf])
    case holder(Holder)
    struct AllCasePaths {}
    static var allCasePaths: AllCasePaths { AllCasePaths() }
    static var _$casePayloadTypes: [Any.Type]? { [[Leaf].self, Holder.self] }
  }

  @Test func aCasePathableEnumMayHoldSharedValuesOnlyWhenAPayloadTypeMay() {
    #expect(!SharedTypeAnalysis.mayHoldSharedValues(Route.self))
    #expect(!SharedTypeAnalysis.mayHoldSharedValues(PresentationState<Route>.self))
    #expect(SharedTypeAnalysis.mayHoldSharedValues(SharedRoute.self))
    #expect(SharedTypeAnalysis.mayHoldSharedValues(Destination.self))
    let inner = Shared(4)
    let route = PresentationState<SharedRoute>(wrappedValue: .holder(Holder(shared: inner)))
    #expect(SharedScan.boxes(in: route).map(ObjectIdentifier.init) == [ObjectIdentifier(inner.sharedBox)])
  }

  @Test func aPresentedStateIsSearched() {
    let inner = Shared(3)
    let presented = PresentationState(wrappedValue: Holder(shared: inner))
    #expect(SharedScan.boxes(in: presented).map(ObjectIdentifier.init) == [ObjectIdentifier(inner.sharedBox)])
    #expect(SharedScan.boxes(in: PresentationState<Holder>(wrappedValue: nil)).isEmpty)
  }
}
