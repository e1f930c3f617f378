@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// Hands the compiler the macro implementations of this module by type name.
struct ComposableMacrosProvider: PluginProvider {
  nonisolated(unsafe) static let macros: [String: any Macro.Type] = [
    "CasePathableMacro": CasePathableMacro.self,
    "MarkerMacro": MarkerMacro.self,
    "ObservableStateMacro": ObservableStateMacro.self,
    "ReducerMacro": ReducerMacro.self,
  ]

  func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
    guard let macro = Self.macros[typeName] else { throw UnknownMacro(name: typeName) }
    return macro
  }

  func loadPluginLibrary(libraryPath: String, moduleName: String) throws {}

  var features: [PluginFeature] { [] }
}

struct UnknownMacro: Error, CustomStringConvertible {
  let name: String
  var description: String { "ComposableMacrosPlugin has no macro named \(name)" }
}

@main
enum ComposableMacrosPluginMain {
  static func main() throws {
    let listener = try CompilerPluginMessageListener(
      connection: StandardIOMessageConnection(), provider: ComposableMacrosProvider())
    try listener.main()
  }
}
