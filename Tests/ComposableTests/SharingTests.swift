import Composable
import Foundation
import Testing

private struct SignUp: Equatable, Codable {
  var email = ""
  var phoneNumber = ""
}

private struct Parent: Equatable, Codable {
  @Shared var count: Int
  var child: Child?
}

private struct Child: Equatable, Codable {
  @Shared var count: Int
}

@Suite struct SharingTests {
  @Test func copiesOfAStateShareTheValue() {
    let parent = Parent(count: Shared(0))
    let copy = parent
    parent.$count.withLock { $0 += 1 }
    #expect(copy.count == 1)
    #expect(parent.count == 1)
  }

  @Test func childGivenTheParentsSharedSeesItsChanges() {
    var parent = Parent(count: Shared(5))
    parent.child = Child(count: parent.$count)
    parent.child?.$count.withLock { $0 *= 2 }
    #expect(parent.count == 10)
    parent.$count.withLock { $0 = 1 }
    #expect(parent.child?.count == 1)
  }

  @Test func derivedSharedReadsAndWritesAPartOfTheValue() {
    let signUp = Shared(SignUp(email: "blob@example.com"))
    let phoneNumber: Shared<String> = signUp.phoneNumber
    phoneNumber.withLock { $0 = "555-1234" }
    #expect(signUp.wrappedValue.phoneNumber == "555-1234")
    signUp.withLock { $0.phoneNumber = "555-0000" }
    #expect(phoneNumber.wrappedValue == "555-0000")
  }

  @Test func withLockReturnsTheBodysResult() {
    let count = Shared(41)
    let result = count.withLock { value -> String in
      value += 1
      return "now \(value)"
    }
    #expect(result == "now 42")
  }

  @Test func concurrentWithLockLosesNoUpdate() async {
    let count = Shared(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<50 {
        group.addTask {
          for _ in 0..<1_000 { count.withLock { $0 += 1 } }
        }
      }
    }
    #expect(count.wrappedValue == 50_000)
  }

  @Test func equalityComparesValuesNotReferences() {
    #expect(Shared(1) == Shared(1))
    #expect(Shared(1) != Shared(2))
    #expect(Parent(count: Shared(3)) == Parent(count: Shared(3)))
  }

  @Test func encodesAsThePlainValueWhereverItSits() throws {
    struct Root: Codable { var shared: Child }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(Root(shared: Child(count: Shared(3)))), as: UTF8.self)
    #expect(json == #"{"shared":{"count":3}}"#)
  }

  @Test func decodesIntoANewSharedValue() throws {
    let parent = try JSONDecoder().decode(Parent.self, from: Data(#"{"count": 7}"#.utf8))
    #expect(parent.count == 7)
    parent.$count.withLock { $0 += 1 }
    #expect(parent.count == 8)
  }

  @Test func customDumpShowsTheValueUnderThePropertyName() {
    let dump = customDump(Parent(count: Shared(2), child: Child(count: Shared(4))))
    #expect(
      dump == """
        Parent(
          count: 2,
          child: Child(count: 4)
        )
        """)
  }

  @Test func readerFollowsTheSharedValue() {
    let count = Shared(1)
    let reader = SharedReader(count)
    count.withLock { $0 = 2 }
    #expect(reader.wrappedValue == 2)
    #expect(count.reader.wrappedValue == 2)
  }

  @Test func publisherYieldsEachChange() async {
    let count = Shared(0)
    let stream = count.publisher
    var changes = stream.makeAsyncIterator()
    count.withLock { $0 = 1 }
    #expect(await changes.next() == 1)
    count.withLock { $0 += 1 }
    #expect(await changes.next() == 2)
  }

  @Test func publisherOfADerivedValueYieldsThePart() async {
    let signUp = Shared(SignUp())
    var changes = signUp.email.publisher.makeAsyncIterator()
    signUp.withLock { $0.email = "blob@example.com" }
    #expect(await changes.next() == "blob@example.com")
  }
}
