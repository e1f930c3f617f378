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
        extension State: ObservableState {
        }

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
            try container.encodeProperty(self._title, forKey: .title)
            try container.encodeProperty(self._count, forKey: .count)
            try container.encodeProperty(self._note, forKey: .note)
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
            try container.decodeProperty(&self._title, forKey: .title)
            try container.decodeProperty(&self._count, forKey: .count)
            try container.decodeProperty(&self._note, forKey: .note)
            self.id = try container.decodeProperty(\Self.id, forKey: .id)
            try container.decodeProperty(&self._total, forKey: .total)
            self._owned = try container.decodeProperty(\Self._owned, forKey: .owned)
            try container.decodeProperty(&self._detail, forKey: .detail)
          }

          /// Writes the JSON of `encode(to:)` in one pass, members in name order.
          public func writeJSON(to writer: inout JSONWriter) throws {
            writer.beginObject()
            try writer.field("count", self._count)
            try writer.field("detail", self._detail)
            try writer.field("id", self.id)
            try writer.field("note", self._note)
            try writer.field("owned", self._owned)
            try writer.field("title", self._title)
            try writer.field("total", self._total)
            try writer.field("version", self.version)
            writer.endObject()
          }

          /// Diffs the members: equal ones are skipped, changed ones diffed or replaced.
          public static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
            patch.beginObject()
            try patch.field("count", old._count, new._count)
            try patch.field("detail", old._detail, new._detail)
            try patch.field("id", old.id, new.id)
            try patch.field("note", old._note, new._note)
            try patch.field("owned", old._owned, new._owned)
            try patch.field("title", old._title, new._title)
            try patch.field("total", old._total, new._total)
            try patch.field("version", old.version, new.version)
            patch.endObject()
          }

          /// The JSON Schema of this state, from its declaration: no decoding runs.
          public static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
            context.object([
              JSONSchemaProperty("title", \Self._title, hasDefault: true),
              JSONSchemaProperty("count", \Self._count, hasDefault: true),
              JSONSchemaProperty("note", \Self._note, hasDefault: true),
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

  @Test func aStructGetsARegistrarAndCodesTheStorageOfItsObservedVars() {
    let (source, diagnostics) = expand(
      """
      @ObservableState
      public struct State: Codable {
        @BindingState var title = ""
        var count: Int
        let id: UUID
        @Presents var detail: Detail.State?
        @ObservationStateIgnored var cache = 0
        var visits = 0 { didSet {} }
        var doubled: Int { count * 2 }
      }
      """, conformances: stateConformances)
    #expect(diagnostics == [])
    #expect(
      source.contains(
        """
          var _$observationRegistrar = ObservationStateRegistrar()

          public var _$id: ObservableStateID {
            _$observationRegistrar.id
          }

          public mutating func _$willModify() {
            _$observationRegistrar._$willModify()
          }
        }

        extension State: ObservableState {
        }
        """))
    // Observed vars are coded through their storage; lets, wrapped, ignored, observed-by-didSet
    // and computed properties as before.
    for (name, storage) in [
      ("title", "_title"), ("count", "_count"), ("id", "id"), ("detail", "_detail"), ("cache", "cache"),
      ("visits", "visits"),
    ] {
      #expect(source.contains("try container.encodeProperty(self.\(storage), forKey: .\(name))"), "\(name)")
    }
    #expect(!source.contains("case doubled"))
  }

  @Test func anObservedVarIsComputedOverItsStorageThroughTheRegistrar() {
    let (source, diagnostics) = expand(
      """
      struct State {
        @ObservationStateTracked var count: Int
        @ObservationStateTracked var `default` = true
      }
      """, conformances: [:])
    #expect(diagnostics == [])
    #expect(
      source.hasPrefix(
        #"""
        struct State {
          var count: Int {
            @storageRestrictions(initializes: _count)
            init(initialValue) {
              _count = initialValue
            }
            get {
              if _$observationRegistrar.isTracking {
                _$observationRegistrar.access(self, keyPath: \.count)
              }
              return _count
            }
            set {
              if _$observationRegistrar.isObserved {
                _$observationRegistrar.mutate(self, keyPath: \.count, &_count, newValue, _$isIdentityEqual, _$shouldNotifyObservers)
              } else {
                _count = newValue
              }
            }
            _modify {
              guard _$observationRegistrar.isObserved else {
                yield &_count
                return
              }
              let oldValue = _$observationRegistrar.willModify(self, keyPath: \.count, &_count)
              defer {
                _$observationRegistrar.didModify(self, keyPath: \.count, &_count, oldValue, _$isIdentityEqual)
              }
              yield &_count
            }
          }

          private var _count: Int
        """#))
    #expect(source.contains(#"_$observationRegistrar.access(self, keyPath: \.`default`)"#))
    #expect(source.contains("private var _default = true"))
  }

  @Test func anEnumIsIdentifiedByItsCaseAndPayloadUnderItsOwnIfs() {
    let (source, diagnostics) = expand(
      """
      @ObservableState
      enum State {
        case child(Child.State)
        #if os(macOS)
          case mac(id: Child.State)
        #endif
        case idle, pair(Int, Int)
      }
      """, conformances: stateConformances)
    #expect(diagnostics == [])
    #expect(
      source.drop(while: \.isNewline) == """
        enum State {
          case child(Child.State)
          #if os(macOS)
            case mac(id: Child.State)
          #endif
          case idle, pair(Int, Int)

          var _$id: ObservableStateID {
            switch self {
            case let .child(v0):
              return ObservableStateID._$id(for: v0)._$tag(0)
            #if os(macOS)
            case let .mac(v0):
              return ObservableStateID._$id(for: v0)._$tag(1)
            #endif
            case .idle:
              return ObservableStateID()._$tag(2)
            case .pair:
              return ObservableStateID()._$tag(3)
            }
          }

          mutating func _$willModify() {
            if case var .child(v0) = self {
              Composable._$willModify(&v0)
              self = .child(v0)
              return
            }
            #if os(macOS)
            if case var .mac(v0) = self {
              Composable._$willModify(&v0)
              self = .mac(id: v0)
              return
            }
            #endif
          }
        }

        extension State: ObservableState {
        }
        """)
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
    #expect(source.contains("try container.encodeProperty(self._count, forKey: .count)"))
    #expect(!source.contains("forKey: .cache"), "not in CodingKeys: not coded")
    #expect(source.contains(#"try writer.field("Count", self._count)"#))
    #expect(source.contains(#"try writer.field("a/b~c", self._label)"#))
    #expect(!source.contains("JSONDiffable"), "a patch path would need the name escaped")
    #expect(source.contains(#"JSONSchemaProperty("a/b~c", \Self._label, hasDefault: true)"#))
    let (quoted, _) = expand(
      #"""
      @ObservableState
      struct State: Codable {
        var label = ""
        enum CodingKeys: String, CodingKey { case label = "say \"hi\"" }
      }
      """#, conformances: stateConformances)
    #expect(!quoted.contains("writeJSON"), "a name JSON escapes is written through encode(to:)")
    #expect(quoted.contains(#"JSONSchemaProperty("say \"hi\"", \Self._label, hasDefault: true)"#))
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
    // Synthesized Codable codes the stored properties: none moves to `_count`, and there is no
    // registrar to code.
    #expect(!source.contains("_count") && !source.contains("_$observationRegistrar") && !source.contains("ObservableState {"))
    #expect(
      diagnostics == [
        "warning: @ObservableState cannot generate this state's coding because of a 'lazy' property, so it is left "
          + "to synthesized Codable and the state is not observed: a state saved before a property was added will not decode, and the schema cannot "
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
