import Foundation
import StoreHost
import StoreHostDemo

/// `storehost schema [--typescript]`: prints the demo's JSON Schema (what
/// `GET /api/schema` serves) or its TypeScript declarations, for `storehost.js` pages.
enum SchemaCommand {
  static let usage = "usage: storehost schema [--typescript]"

  static func run(_ arguments: [String]) -> Int32 {
    typealias Host = SessionHost<AppFeature.State, AppFeature.Action>
    switch arguments {
    case []:
      guard let json = try? JSONEncoding.encode(Host.schema) else { return 1 }
      print(String(decoding: json, as: UTF8.self))
    case ["--typescript"]:
      print(Host.typeScriptDeclarations(of: "the StoreHost demo (AppFeature)"), terminator: "")
    default:
      FileHandle.standardError.write(Data("\(usage)\n".utf8))
      return 2
    }
    return 0
  }
}
