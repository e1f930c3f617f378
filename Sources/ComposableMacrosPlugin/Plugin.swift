import SwiftSyntaxMacros

/// The macro implementations of this module, by the type name the compiler asks for.
nonisolated(unsafe) let composableMacros: [String: any Macro.Type] = [
  "CasePathableMacro": CasePathableMacro.self,
  "DependencyClientMacro": DependencyClientMacro.self,
  "DependencyEndpointMacro": DependencyEndpointMacro.self,
  "MarkerMacro": MarkerMacro.self,
  "NestedCasePathableMacro": NestedCasePathableMacro.self,
  "ObservableStateMacro": ObservableStateMacro.self,
  "ObservationStateTrackedMacro": ObservationStateTrackedMacro.self,
  "ReducerMacro": ReducerMacro.self,
  "StoreSendableMacro": StoreSendableMacro.self,
]

#if canImport(SwiftCompilerPlugin)
// Built against the swift-syntax package: its documented entry point.
import SwiftCompilerPlugin

@main
struct ComposableMacrosEntryPoint: CompilerPlugin {
  let providingMacros: [any Macro.Type] = Array(composableMacros.values)
}
#else
// Built against the toolchain's own modules, which lack SwiftCompilerPlugin: its message loop.
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling

/// Hands the compiler the macro implementations of this module by type name.
struct ComposableMacrosProvider: PluginProvider {
  func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
    guard let macro = composableMacros[typeName] else { throw UnknownMacro(name: typeName) }
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
#endif
