import ComposableArchitecture
import Foundation
import Testing

/// A generic state.
@ObservableState
struct Boxed<Value: Codable & Equatable>: Codable, Equatable {
  var value: Value
  var count = 0
}

/// A state nested in a generic type.
struct Container<Element> {
  @ObservableState
  struct State: Codable, Equatable {
    var items: [Int] = []
  }
}

/// A private state, with private and `private(set)` members and an initializer of its own.
@ObservableState
private struct Hidden: Swift.Codable, Hashable {
  private var secret = 1
  private(set) var visible = 2
  var first = 0, second: Int
  var `default` = true

  init(second: Int) { self.second = second }

  func reveal() -> Int { secret }
}

/// Only read, or only written.
@ObservableState
private struct ReadOnly: Decodable, Equatable {
  var count = 0
}

@ObservableState
private struct WriteOnly: Encodable {
  var count = 0
  let id: Int
}

/// A custom `init(from:)` in the body: kept, and the rest still generated.
@ObservableState
private struct Custom: Codable, Equatable {
  var count = 0

  init(count: Int) { self.count = count }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    count = try container.decode(Int.self, forKey: .count) * 10
  }
}

@Suite struct StateCodingShapesTests {
  @Test func genericNestedAndPrivateStatesRoundTrip() throws {
    let boxed = Boxed(value: "x", count: 2)
    #expect(try json(boxed) == #"{"count":2,"value":"x"}"#)
    #expect(try decode(Boxed<String>.self, #"{"value":"y"}"#) == Boxed(value: "y"))
    #expect(try decode(Boxed<Int?>.self, #"{"value":null}"#) == Boxed(value: nil))
    #expect(try decode(Container<Int>.State.self, "{}") == Container<Int>.State())
    let hidden = Hidden(second: 5)
    #expect(try json(hidden) == #"{"default":true,"first":0,"second":5,"secret":1,"visible":2}"#)
    #expect(try decode(Hidden.self, #"{"second":5,"secret":3}"#).reveal() == 3)
    #expect(String(decoding: try JSONEncoding.encode(hidden), as: UTF8.self) == (try json(hidden)))
  }

  @Test func readOnlyAndWriteOnlyStates() throws {
    #expect(try decode(ReadOnly.self, "{}") == ReadOnly())
    #expect(try json(WriteOnly(id: 3)) == #"{"count":0,"id":3}"#)
    #expect(String(decoding: try JSONEncoding.encode(WriteOnly(id: 3)), as: UTF8.self) == #"{"count":0,"id":3}"#)
  }

  @Test func aCustomInitFromIsKeptBesideTheGeneratedEncoding() throws {
    #expect(try decode(Custom.self, #"{"count":2}"#) == Custom(count: 20))
    #expect(String(decoding: try JSONEncoding.encode(Custom(count: 3)), as: UTF8.self) == #"{"count":3}"#)
  }
}
