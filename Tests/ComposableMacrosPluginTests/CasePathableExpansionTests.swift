import Testing

@Suite struct CasePathableExpansionTests {
  @Test func anEnumDescribesItsCasesAndTheirPayloadTypes() {
    let (source, _) = expand(
      """
      @CasePathable
      enum Action {
        case tapped
        case counter(Counter.Action)
        case move(from: Int, to: Int?)
        case pair(Int, label: String)
        @Internal case response(Result<String, any Error>)
      }
      """, conformances: ["CasePathable": ["CasePathable", "Encodable", "Decodable", "JSONSchemaDescribable"]])
    #expect(
      source.contains(
        """
          static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
            context.tagged([
              JSONSchemaCase("tapped"),
              JSONSchemaCase("counter", payload: (Counter.Action).self),
              JSONSchemaCase("move", labeled: ["from": (Int).self, "to": (Int?).self]),
              JSONSchemaCase("pair", unlabeled: [(Int).self, (String).self]),
              JSONSchemaCase("response", payload: (Result<String, any Error>).self, isInternal: true),
            ])
          }
        """))
    #expect(source.contains("extension Action: CasePathable, Encodable, Decodable, JSONSchemaDescribable {"))
  }
}
