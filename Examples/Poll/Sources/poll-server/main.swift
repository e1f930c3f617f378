import Foundation
import HTTP
import Poll
import StoreHost

// The poll on http://127.0.0.1:8080 (PORT and HOST change it). Sessions, the session
// secret and the board live in DATA_DIR (default .poll); the pages come from PUBLIC_DIR
// (default Public), and the StoreHost browser client from StoreHost itself (at
// /storehost/v1/, with the session API).
if CommandLine.arguments.dropFirst().first == "schema" {
  // `poll-server schema`: the TypeScript declarations of Public/poll-types.d.ts.
  print(SessionHost<Poll.State, Poll.Action>.typeScriptDeclarations(of: "the Poll example"), terminator: "")
  exit(0)
}

let environment = ProcessInfo.processInfo.environment
func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
let publicDirectory = absolute(environment["PUBLIC_DIR"] ?? "Public")
// The board file (`.board`) is relative to the working directory: the data directory.
let dataDirectory = environment["DATA_DIR"] ?? ".poll"
try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
guard FileManager.default.changeCurrentDirectoryPath(dataDirectory) else {
  fatalError("poll-server: cannot enter the data directory \(dataDirectory)")
}

let host = SessionHost(
  persistence: try await SQLiteSessionPersistence.open(path: "sessions.sqlite", durability: .fast),
  tokenSigner: try SessionTokenSigner(secret: SessionSecret.loadOrCreate(inDirectory: ".")),
  initialState: Poll.State()
) {
  Poll()
}

var router = Router()
host.addRoutes(to: &router)
router.setFallback(StaticFiles(root: publicDirectory).respond)
var configuration = ServerConfiguration()
configuration.host = environment["HOST"] ?? "127.0.0.1"
configuration.port = environment["PORT"].flatMap { Int($0) } ?? 8080
configuration.eventStreamBufferLimit = max(configuration.eventStreamBufferLimit, host.eventStreamBufferLimit)
let server = HTTPServer(configuration: configuration, router: router)
try server.start()
host.startEvictingIdleSessions()
print("Poll serving http://\(configuration.host):\(server.port)")
fflush(nil)
try await server.run()
await host.shutdown()
