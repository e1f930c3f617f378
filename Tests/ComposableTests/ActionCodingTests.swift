import Composable
import Foundation
import Testing

/// A state declaring its bindable fields by hand.
struct CodingForm: Equatable {
  var name = ""
  var age = 0
  var isAdmin = false
}

extension CodingForm: BindableFields {
  static var bindableFields: [BindableField<Self>] {
    [BindableField("name", \.name), BindableField("age", \.age)]
  }
}

/// An action coded by hand with the public helpers.
indirect enum CodingFormAction: Equatable, Codable {
  case binding(BindingAction<CodingForm>)
  case submit
  case move(from: Int, to: Int)
  case pair(Int, String)
  case rows(IdentifiedAction<Int, CodingFormAction>)
  case saved(Bool)

  init(from decoder: any Decoder) throws {
    let container = try ActionDecodingContainer(
      from: decoder, for: Self.self, cases: ["binding", "submit", "move", "pair", "rows", "saved"],
      internalCases: ["saved"])
    switch container.tag {
    case "binding": self = .binding(try container.decodePayload())
    case "submit":
      try container.decodeNoPayload()
      self = .submit
    case "move":
      let payload = try container.decodeLabeledPayload()
      self = .move(from: try payload.decode(forKey: "from"), to: try payload.decode(forKey: "to"))
    case "pair":
      var payload = try container.decodeUnlabeledPayload(count: 2)
      self = .pair(try payload.decode(Int.self), try payload.decode(String.self))
    case "rows": self = .rows(try container.decodePayload())
    case "saved": self = .saved(try container.decodePayload(Bool.self))
    default: throw container.unknownCase()
    }
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case let .binding(action): try ActionEncoding.encode(case: "binding", payload: action, to: encoder)
    case .submit: try ActionEncoding.encode(case: "submit", to: encoder)
    case let .move(from, to):
      try ActionEncoding.encode(case: "move", labeled: ["from": from, "to": to], to: encoder)
    case let .pair(number, text):
      try ActionEncoding.encode(case: "pair", unlabeled: [number, text], to: encoder)
    case let .rows(action): try ActionEncoding.encode(case: "rows", payload: action, to: encoder)
    case let .saved(success): try ActionEncoding.encode(case: "saved", payload: success, to: encoder)
    }
  }
}

private func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

private func decode(_ text: String) throws -> CodingFormAction {
  try JSONDecoder().decode(CodingFormAction.self, from: Data(text.utf8))
}

private func clientError(_ text: String) -> ActionDecodingError? {
  #expect(throws: ActionDecodingError.self) {
    try ActionDecoding.decodeClientAction(CodingFormAction.self, from: Data(text.utf8))
  }
}

@Suite struct ActionCodingTests {
  @Test(arguments: [
    (CodingFormAction.submit, #""submit""#),
    (.move(from: 1, to: 3), #"{"move":{"from":1,"to":3}}"#),
    (.pair(1, "a"), #"{"pair":[1,"a"]}"#),
    (.binding(.set(\.name, "Blob")), #"{"binding":{"name":"Blob"}}"#),
    (.rows(.element(id: 7, action: .submit)), #"{"rows":{"element":{"action":"submit","id":7}}}"#),
    (.saved(true), #"{"saved":true}"#),
  ])
  func handWrittenCodingRoundTrips(action: CodingFormAction, expected: String) throws {
    #expect(try json(action) == expected)
    #expect(try decode(expected) == action)
  }

  @Test func clientsMayNotSendInternalCases() throws {
    #expect(clientError(#"{"saved":true}"#)?.kind == .internalCase)
    #expect(clientError(#"{"rows":{"element":{"id":1,"action":{"saved":true}}}}"#)?.path == "rows.element.action")
    #expect(try decode(#"{"saved":false}"#) == .saved(false))
  }

  @Test func unknownCasesListTheClientCases() {
    let error = clientError(#""cancel""#)
    #expect(error?.kind == .unknownCase)
    #expect(error?.message == "unknown case 'cancel' of CodingFormAction; valid cases: binding, submit, move, pair, rows")
  }

  @Test func trustedUnknownCasesListEveryCase() {
    #expect(throws: ActionDecodingError.self) { try decode(#""cancel""#) }
    do {
      _ = try decode(#""cancel""#)
    } catch let error as ActionDecodingError {
      #expect(error.message.hasSuffix("valid cases: binding, submit, move, pair, rows, saved"))
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test func bindingsAreLimitedToBindableFields() throws {
    #expect(try decode(#"{"binding":{"age":42}}"#) == .binding(.set(\.age, 42)))
    let error = clientError(#"{"binding":{"isAdmin":true}}"#)
    #expect(error?.kind == .nonBindableField)
    #expect(error?.message == "binding: 'isAdmin' is not a bindable field of CodingForm; bindable fields: name, age")
  }

  @Test func aBindingSetsExactlyOneField() {
    let error = clientError(#"{"binding":{"name":"a","age":1}}"#)
    #expect(error?.kind == .malformed)
    #expect(error?.path == "binding")
  }

  @Test func encodingABindingOfAnUndeclaredFieldFails() {
    #expect(throws: EncodingError.self) {
      try json(CodingFormAction.binding(.set(\.isAdmin, true)))
    }
  }

  @Test func decodedBindingsSetTheState() throws {
    var form = CodingForm()
    try #require(try decode(#"{"binding":{"name":"Blob"}}"#).binding).set(&form)
    #expect(form.name == "Blob")
  }

  @Test func theClientPolicyIsADecoderSetting() throws {
    let decoder = JSONDecoder()
    decoder.userInfo[.actionDecodingPolicy] = ActionDecodingPolicy.client
    #expect(throws: ActionDecodingError.self) {
      try decoder.decode(CodingFormAction.self, from: Data(#"{"saved":true}"#.utf8))
    }
  }

  @Test func decodingErrorsKeepTheirPath() {
    let error = clientError(#"{"move":{"from":1,"to":"x"}}"#)
    #expect(error?.kind == .malformed)
    #expect(error?.path == "move.to")
  }
}

extension CodingFormAction {
  var binding: BindingAction<CodingForm>? {
    if case let .binding(action) = self { action } else { nil }
  }
}
