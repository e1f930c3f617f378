import StoreHostJSON

/// TypeScript declarations of the types a JSON Schema document defines (its `$defs`), for
/// a browser page's typed `send` and state: `export type State = {...}` and so on.
///
/// It renders what `Composable/JSONSchema` writes: objects, arrays and tuples, unions
/// (`oneOf`, `anyOf`, `enum`), constants and the scalar types; anything else is `unknown`,
/// followed by the schema's `description` as a comment when it has one.
public enum TypeScriptDeclarations {
  /// The declarations of `document`'s definitions, sorted by name, under `header` (a
  /// comment saying where they came from).
  public static func render(_ document: JSONValue, header: String) -> String {
    var output = header.split(separator: "\n", omittingEmptySubsequences: false).map { "// \($0)\n" }.joined()
    guard case .object(let definitions)? = document["$defs"] else { return output }
    for name in definitions.keys.sorted() {
      output += "\nexport type \(name) =\(spaced(type(of: definitions[name]!, indent: "")));\n"
    }
    return output
  }

  private static func type(of schema: JSONValue, indent: String) -> String {
    guard case .object(let members) = schema else { return "unknown" }
    if let constant = members["const"] { return literal(constant) }
    if case .array(let values)? = members["enum"] { return union(values.map(literal), indent: indent) }
    if members["oneOf"] != nil || members["anyOf"] != nil {
      return union(alternatives(of: schema).map { type(of: $0, indent: indent + "  ") }, indent: indent)
    }
    switch members["type"] {
    case .string("string"): return "string"
    case .string("integer"), .string("number"): return "number"
    case .string("boolean"): return "boolean"
    case .string("null"): return "null"
    case .string("array"):
      if case .array(let items)? = members["prefixItems"] {
        return "[" + items.map { type(of: $0, indent: indent) }.joined(separator: ", ") + "]"
      }
      return "Array<\(type(of: members["items"] ?? [:], indent: indent))>"
    case .string("object"): return object(members, indent: indent)
    default:
      guard case .string(let description)? = members["description"] else { return "unknown" }
      return "unknown /* \(description.replacing("*/", with: "* /")) */"
    }
  }

  /// The alternatives of a union, with those of unions inside it brought up to its level.
  private static func alternatives(of schema: JSONValue) -> [JSONValue] {
    guard case .object(let members) = schema else { return [schema] }
    for key in ["oneOf", "anyOf"] {
      if case .array(let alternatives)? = members[key] { return alternatives.flatMap(Self.alternatives(of:)) }
    }
    return [schema]
  }

  private static func object(_ members: [String: JSONValue], indent: String) -> String {
    guard case .object(let properties)? = members["properties"], !properties.isEmpty else {
      if let values = members["additionalProperties"], values != .bool(false) {
        return "{ [key: string]: \(type(of: values, indent: indent)) }"
      }
      return "Record<string, never>"
    }
    var required: Set<String> = []
    if case .array(let names)? = members["required"] {
      for case .string(let name) in names { required.insert(name) }
    }
    let inner = indent + "  "
    let lines = properties.keys.sorted().map { name in
      let optional = required.contains(name) ? "" : "?"
      return "\(inner)\(propertyName(name))\(optional):\(spaced(type(of: properties[name]!, indent: inner)));"
    }
    return "{\n" + lines.joined(separator: "\n") + "\n\(indent)}"
  }

  /// `type` after a space, unless it starts on a new line.
  private static func spaced(_ type: String) -> String {
    type.hasPrefix("\n") ? type : " " + type
  }

  private static func union(_ types: [String], indent: String) -> String {
    guard types.count > 1 else { return types.first ?? "never" }
    guard types.contains(where: { $0.contains("\n") }) || types.joined().count > 80 else {
      return types.joined(separator: " | ")
    }
    return types.map { "\n\(indent)  | \($0)" }.joined()
  }

  private static func literal(_ value: JSONValue) -> String {
    (try? String(decoding: JSONEncoding.encode(value), as: UTF8.self)) ?? "unknown"
  }

  /// `name`, quoted unless it is an identifier.
  private static func propertyName(_ name: String) -> String {
    let isIdentifier = name.first.map { $0.isLetter || $0 == "_" || $0 == "$" } == true
      && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
    return isIdentifier ? name : literal(.string(name))
  }
}
