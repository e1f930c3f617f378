#if !canImport(Darwin)
  import Foundation

  extension URL {
    /// Where Linux's Foundation lacks it, the user's documents directory, as TCA's examples
    /// name a `.fileStorage` file: `.documentsDirectory.appending(component: "sync-ups.json")`.
    public static var documentsDirectory: URL {
      FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
        ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Documents")
    }
  }
#endif
