import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

@testable import ComposableMacrosPlugin

/// `source` with its macros expanded as the compiler would, given the conformances the
/// types lack, and the diagnostics the macros made.
func expand(_ source: String, conformances: [String: [String]]) -> (source: String, diagnostics: [String]) {
  let file = Parser.parse(source: source)
  let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "App", fullFilePath: "App.swift")])
  var specs: [String: MacroSpec] = [:]
  let macros: [(String, any Macro.Type)] = [
    ("ObservableState", ObservableStateMacro.self), ("CasePathable", CasePathableMacro.self),
    ("ObservationStateTracked", ObservationStateTrackedMacro.self), ("ObservationStateIgnored", MarkerMacro.self),
  ]
  for (name, macro) in macros {
    specs[name] = MacroSpec(type: macro, conformances: conformances[name, default: []].map { TypeSyntax(stringLiteral: $0) })
  }
  let expanded = file.expand(macroSpecs: specs, contextGenerator: { _ in context }, indentationWidth: .spaces(2))
  let diagnostics = context.diagnostics.map { "\($0.diagMessage.severity): \($0.message)" }
  return (expanded.description, diagnostics)
}

/// What `@ObservableState` may add to a struct that has none of its conformances.
let stateConformances = ["ObservableState": ["ObservableState", "BindableFields", "JSONWritable", "JSONDiffable", "JSONSchemaDescribable"]]
