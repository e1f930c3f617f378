import Testing

@Suite struct ActionReadingExpansionTests {
  private let conformances = [
    "CasePathable": ["CasePathable", "Encodable", "Decodable", "JSONSchemaDescribable", "JSONReadableAction"]
  ]

  @Test func anEnumReadsTheCasesClientsMaySendStraightFromTheBytes() {
    let (source, _) = expand(
      """
      @CasePathable
      enum Action {
        case tapped
        case counter(Counter.Action)
        case move(from: Int, to: Int?)
        @Internal case response(Int)
      }
      """, conformances: conformances)
    #expect(
      source.contains(
        """
          static func readJSON(from reader: inout ActionReader) throws(ActionReader.Mismatch) -> Self {
            let tag = try reader.readCase()
            switch tag.name {
            case "tapped":
              try reader.readNoPayload(tag)
              return .tapped
            case "counter":
              return .counter(try reader.readPayload(tag))
            case "move":
              return try reader.readCase(tag, as: Self.self)
            default:
              throw ActionReader.Mismatch()
            }
          }
        """))
    #expect(!source.contains(#"case "response":\#n      return"#))
    #expect(source.contains("extension Action: JSONReadableAction {"))
  }

  @Test func anEnumDecodingItselfReadsNothingDirectly() {
    let (source, _) = expand(
      """
      @CasePathable
      enum Action: Codable {
        case tapped
        init(from decoder: any Decoder) throws { self = .tapped }
      }
      """, conformances: conformances)
    #expect(!source.contains("readJSON"))
    #expect(!source.contains("JSONReadableAction"))
  }
}
