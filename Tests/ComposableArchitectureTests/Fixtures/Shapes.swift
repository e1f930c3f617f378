import ComposableArchitecture

/// One case of each payload shape.
@CasePathable
enum Shapes: Equatable {
  case reset
  case setName(String)
  case setID(id: Int)
  case move(from: Int, to: Int)
  case pair(Int, String)
  case mixed(Int, label: String)
  case optional(Int?)
  case search(query: String, page: Int?)
  case `default`
}

/// A generic enum.
@CasePathable
enum Wrapper<Value: Equatable>: Equatable {
  case value(Value)
  case values(first: Value, second: Value)
  case empty
}

/// Payloads that are not Codable, like effect responses.
@CasePathable
enum Responses {
  case loaded(Result<String, any Error>)
  case tick
}

/// A public enum: the generated members must be public too.
@CasePathable
public enum PublicAction: Equatable {
  case tapped
  case setValue(Int)
}

/// An enum nested in a generic struct.
struct Outer<Element> {
  @CasePathable
  enum Inner {
    case element(Element)
    case reset
  }
}

/// Declares `Codable` itself: the generated coding replaces Swift's synthesized one.
@CasePathable
enum DeclaredCodable: Codable, Equatable {
  case value(Int)
}

/// Writes its own `encode(to:)`: only decoding is generated.
@CasePathable
enum CustomEncoding: Codable, Equatable {
  case tapped

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode("custom")
  }
}

/// Implements `encode(to:)` without declaring `Encodable`: the macro adds the conformance only.
@CasePathable
enum ImplicitlyCustom: Equatable {
  case tapped

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode("own")
  }
}
