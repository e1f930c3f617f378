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
    self = .element(id: try payload.decode(forKey: "id"), action: try payload.decode(forKey: "action"))
  }
}
