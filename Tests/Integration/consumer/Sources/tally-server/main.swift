import Foundation
import HTTP
import StoreHost
import Tally

let host = SessionHost(
  persistence: InMemorySessionPersistence(),
  tokenSigner: try SessionTokenSigner(secret: Array(repeating: 7, count: SessionTokenSigner.minimumSecretLength)),
  initialState: Tally.State()
) {
  Tally()
}
var router = Router()
host.addRoutes(to: &router)
var configuration = ServerConfiguration()
configuration.port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
let server = HTTPServer(configuration: configuration, router: router)
try await server.run()
await host.shutdown()
