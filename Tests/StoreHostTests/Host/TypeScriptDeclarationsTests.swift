import Foundation
import StoreHost
import StoreHostDemo
import Testing

@Suite struct TypeScriptDeclarationsTests {
  @Test func rendersEachKindOfSchema() throws {
    let document: JSONValue = [
      "$defs": [
        "Action": ["oneOf": [["const": "tapped"], ["type": "object", "properties": ["set": ["type": "integer"]], "required": ["set"]]]],
        "State": [
          "type": "object",
          "properties": [
            "name": ["type": "string"], "note": ["anyOf": [["type": "string"], ["type": "null"]]],
            "tags": ["type": "array", "items": ["type": "string"]],
            "pair": ["type": "array", "prefixItems": [["type": "integer"], ["type": "boolean"]]],
            "scores": ["type": "object", "additionalProperties": ["type": "number"]],
            "role": ["enum": ["admin", "guest"]], "data-id": [:],
          ],
          "required": ["name", "tags", "pair", "scores", "role", "data-id"],
        ],
      ]
    ]
    #expect(
      TypeScriptDeclarations.render(document, header: "Made for a test.") == """
        // Made for a test.

        export type Action =
          | "tapped"
          | {
            set: number;
          };

        export type State = {
          "data-id": unknown;
          name: string;
          note?: string | null;
          pair: [number, boolean];
          role: "admin" | "guest";
          scores: { [key: string]: number };
          tags: Array<string>;
        };

        """)
  }

  @Test func theDemoDeclaresEveryPageOfItsStateAndItsClientActions() {
    let declarations = SessionHost<AppFeature.State, AppFeature.Action>.typeScriptDeclarations(of: "the demo")
    #expect(declarations.hasPrefix("// The state and actions of the demo, as GET /api/schema describes them.\n"))
    for page in ["counter", "twoCounters", "todos", "numberFact", "timer", "shared"] {
      #expect(declarations.contains("\n  \(page): {"), "State.\(page)")
      #expect(declarations.contains("\n    \(page):"), "Action.\(page)")
    }
    #expect(declarations.contains("fact?: string;"))
    #expect(!declarations.contains("factResponse") && !declarations.contains("sessionResumed"))
  }
}
