/// An element's action is `{"element": {"id": id, "action": action}}`.
extension IdentifiedAction: Encodable {
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case let .element(id, action):
      try ActionEncoding.encode(case: "element", labeled: ["id": id, "action": action], to: encoder)
    }
  }
}

extension IdentifiedAction: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try ActionDecodingContainer(from: decoder, for: Self.self, cases: ["element"])
    let payload = try container.decodeLabeledPayload()
    self = try .element(id: payload.decode(forKey: "id"), action: payload.decode(forKey: "action"))
  }
}
