import Testing

@Suite struct ObservableStateExpansionTests {
  @Test func aCodableStateGetsItsCodingAndSchemaFromItsDeclaration() {
    let (source, diagnostics) = expand(
      """
      @ObservableState
      public struct State: Equatable, Codable {
        @BindingState var title = ""
        public var count = 0
        var note: String?
        let id: UUID
        let version = 2
        @Shared(.appStorage("total")) var total = 0
        @Shared var owned: Int
        @Presents var detail: Detail.State?
        var doubled: Int { count * 2 }
        static var shared = 1
      }
      """, conformances: stateConformances)
    #expect(diagnostics == [])
    let extensions = source.firstRange(of: "extension State").map { source[$0.lowerBound...] }
    #expect(
      extensions == #"""
        extension State: BindableFields {
          /// The fields marked `@BindingState`.
          public static var bindableFields: [BindableField<Self>] {
            [BindableField("title", \Self.title)]
          }
        }

        extension State: JSONWritable, JSONDiffable, JSONSchemaDescribable {
          /// The JSON names of the stored properties. To rename one, declare `CodingKeys` in the
          /// struct's body, where `@ObservableState` sees it: one declared in an extension is a
          /// redeclaration of this one.
          private enum CodingKeys: String, CodingKey {
            case title
            case count
            case note
            case id
            case version
            case total
            case owned
            case detail
          }

          /// Encodes the stored properties as synthesized `Encodable` does. Write a custom
          /// `encode(to:)` in the struct's body, where `@ObservableState` sees it: one declared in
          /// an extension is a redeclaration of this one.
          public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeProperty(self.title, forKey: .title)
            try container.encodeProperty(self.count, forKey: .count)
            try container.encodeProperty(self.note, forKey: .note)
            try container.encodeProperty(self.id, forKey: .id)
            try container.encodeProperty(self.version, forKey: .version)
            try container.encodeProperty(self._total, forKey: .total)
            try container.encodeProperty(self._owned, forKey: .owned)
            try container.encodeProperty(self._detail, forKey: .detail)
          }

          /// Decodes the stored properties, and a state saved before the struct gained or lost
          /// some: a missing member leaves a property with a default value at that default (an
          /// optional at `nil`), and members of removed properties are ignored. Write a custom
          /// `init(from:)` in the struct's body, where `@ObservableState` sees it: one declared in
          /// an extension is a redeclaration of this one.
          public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try container.decodeProperty(&self.title, forKey: .title)
            try container.decodeProperty(&self.count, forKey: .count)
            try container.decodeProperty(&self.note, forKey: .note)
            self.id = try container.decodeProperty(\Self.id, forKey: .id)
            try container.decodeProperty(&self._total, forKey: .total)
            self._owned = try container.decodeProperty(\Self._owned, forKey: .owned)
            try container.decodeProperty(&self._detail, forKey: .detail)
          }

          /// Writes the JSON of `encode(to:)` in one pass, members in name order.
          public func writeJSON(to writer: inout JSONWriter) throws {
            writer.beginObject()
            try writer.field("count", self.count)
            try writer.field("detail", self._detail)
            try writer.field("id", self.id)
            try writer.field("note", self.note)
            try writer.field("owned", self._owned)
            try writer.field("title", self.title)
            try writer.field("total", self._total)
            try writer.field("version", self.version)
            writer.endObject()
          }

          /// Diffs the members: equal ones are skipped, changed ones diffed or replaced.
          public static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
            patch.beginObject()
            try patch.field("count", old.count, new.count)
            try patch.field("detail", old._detail, new._detail)
            try patch.field("id", old.id, new.id)
            try patch.field("note", old.note, new.note)
            try patch.field("owned", old._owned, new._owned)
            try patch.field("title", old.title, new.title)
            try patch.field("total", old._total, new._total)
            try patch.field("version", old.version, new.version)
            patch.endObject()
          }

          /// The JSON Schema of this state, from its declaration: no decoding runs.
          public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
            context.object([
              JSONSchemaProperty("title", \Self.title, hasDefault: true),
              JSONSchemaProperty("count", \Self.count, hasDefault: true),
              JSONSchemaProperty("note", \Self.note, hasDefault: true),
              JSONSchemaProperty("id", \Self.id, hasDefault: false),
              JSONSchemaProperty("version", \Self.version, hasDefault: true),
              JSONSchemaProperty("total", \Self._total, hasDefault: true),
              JSONSchemaProperty("owned", \Self._owned, hasDefault: false),
              JSONSchemaProperty("detail", \Self._detail, hasDefault: true),
            ])
          }
        }
        """#)
  }

  @Test func codingKeysDeclaredInTheBodyAreHonouredWithTheirRawValues() {
    let (source, diagnostics) = expand(
      #"""
      @ObservableState
      struct State: Equatable, Codable {
        var count = 0
        var label = ""
        var cache: [Int] = []

        enum CodingKeys: String, CodingKey {
          case count = "Count", label = "a/b~c"
        }
      }
      """#, conformances: stateConformances)
    #expect(diagnostics == [])
    #expect(!source.contains("private enum CodingKeys"))
    #expect(source.contains("try container.encodeProperty(self.count, forKey: .count)"))
    #expect(!source.contains(".cache"), "not in CodingKeys: not coded")
    #expect(source.contains(#"try writer.field("Count", self.count)"#))
    #expect(source.contains(#"try writer.field("a/b~c", self.label)"#))
    #expect(!source.contains("JSONDiffable"), "a patch path would need the name escaped")
    #expect(source.contains(#"JSONSchemaProperty("a/b~c", \Self.label, hasDefault: true)"#))
    let (quoted, _) = expand(
      #"""
      @ObservableState
      struct State: Codable {
        var label = ""
        enum CodingKeys: String, CodingKey { case label = "say \"hi\"" }
      }
      """#, conformances: stateConformances)
    #expect(!quoted.contains("writeJSON"), "a name JSON escapes is written through encode(to:)")
    #expect(quoted.contains(#"JSONSchemaProperty("say \"hi\"", \Self.label, hasDefault: true)"#))
  }

  @Test func encodeAndDecodeWrittenInTheBodyAreKept() {
    let (source, _) = expand(
      """
      @ObservableState
      struct State: Equatable, Codable {
        var count = 0
        func encode(to encoder: any Encoder) throws {}
      }
      """, conformances: stateConformances)
    #expect(source.ranges(of: "func encode(to").count == 1, "the body's own")
    #expect(!source.contains("writeJSON"), "the body's encode(to:) writes the JSON")
    #expect(source.contains("init(from decoder: any Decoder)"))
    #expect(source.contains("private enum CodingKeys"))
    let (both, _) = expand(
      """
      @ObservableState
      struct State: Codable {
        var count = 0
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {}
      }
      """, conformances: stateConformances)
    #expect(!both.contains("extension State: JSON") && !both.contains("CodingKeys"))
  }

  @Test func aMemberWhoseCodingCannotBeSeenLeavesItToSwiftWithAWarning() {
    let (source, diagnostics) = expand(
      """
      @ObservableState
      struct State: Codable {
        var count = 0
        lazy var cached = count * 2
      }
      """, conformances: stateConformances)
    #expect(!source.contains("init(from"))
    #expect(
      diagnostics == [
        "warning: @ObservableState cannot generate this state's coding because of a 'lazy' property, so it is left "
          + "to synthesized Codable: a state saved before a property was added will not decode, and the schema cannot "
          + "describe it. Move it out of the state, or write init(from:) and encode(to:) in the struct's body"
      ])
  }

  @Test func codingKeysThatDisagreeWithThePropertiesAreAnError() {
    let stray = expand(
      """
      @ObservableState
      struct State: Codable {
        var count = 0
        enum CodingKeys: CodingKey { case count, total }
      }
      """, conformances: stateConformances)
    #expect(stray.diagnostics == ["error: CodingKeys case 'total' names no stored property"])
    let uncoded = expand(
      """
      @ObservableState
      struct State: Codable {
        var count = 0
        let id: Int
        enum CodingKeys: CodingKey { case count }
      }
      """, conformances: stateConformances)
    #expect(
      uncoded.diagnostics == [
        "error: 'id' has no default value and no case in CodingKeys: add 'case id' to CodingKeys, or give it a default value"
      ])
  }
}
