import Foundation
import PackagePlugin

/// Builds the browser client into StoreHost: the target's JavaScript and TypeScript
/// declaration files become one generated Swift file (see `EmbedFiles`), so a server serves
/// the client it was built with, from its binary, with nothing to copy beside it.
@main
struct EmbedBrowserClient: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let inputs = target.sourceFiles
      .map(\.url)
      .filter { ["js", "ts"].contains($0.pathExtension) }
      .sorted { $0.path < $1.path }
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("BrowserClientFiles.swift")
    return [
      .buildCommand(
        displayName: "Embedding the browser client in \(target.name)",
        executable: try context.tool(named: "EmbedFiles").url,
        arguments: [output.path] + inputs.map(\.path),
        inputFiles: inputs,
        outputFiles: [output])
    ]
  }
}
