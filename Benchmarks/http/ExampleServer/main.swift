// A small server over the HTTP module, used by the benchmarks and integration scripts:
// `GET /hello` (tiny text), `POST /echo` (JSON echo), `GET /events` (an idle event stream)
// and static files from `--public DIR`. Prints `listening on http://HOST:PORT` when ready.
import Foundation
import HTTP

var configuration = ServerConfiguration()
var publicDirectory: String?
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
  switch flag {
  case "--host": configuration.host = arguments.popFirst() ?? configuration.host
  case "--port": configuration.port = arguments.popFirst().flatMap(Int.init) ?? 0
  case "--loops": configuration.eventLoops = arguments.popFirst().flatMap(Int.init) ?? configuration.eventLoops
  case "--public": publicDirectory = arguments.popFirst()
  case "--access-log": configuration.accessLog = true
  case "--tls-cert":
    let certificate = arguments.popFirst() ?? ""
    configuration.tls = TLSConfiguration(
      certificatePath: certificate, privateKeyPath: configuration.tls?.privateKeyPath ?? "")
  case "--tls-key":
    let key = arguments.popFirst() ?? ""
    configuration.tls = TLSConfiguration(certificatePath: configuration.tls?.certificatePath ?? "", privateKeyPath: key)
  case "--max-connections":
    configuration.limits.maxConnections = arguments.popFirst().flatMap(Int.init) ?? configuration.limits.maxConnections
  default:
    FileHandle.standardError.write(Data("unknown flag \(flag)\n".utf8))
    exit(2)
  }
}

struct Echo: Codable, Sendable {
  var message: String
}

var router = Router()
router.get("/hello") { _ in .text("Hello, world!\n") }
router.get("/healthz") { request in request.isDraining ? Response(status: 503) : .text("ok\n") }
router.post("/echo") { request in try .json(request.decode(Echo.self)) }
router.get("/events") { _ in
  .eventStream { stream in
    stream.retry(milliseconds: 2000)
    stream.send(event: "hello", data: "{}")
    await stream.waitUntilClosed()
  }
}
if let publicDirectory { router.setFallback(StaticFiles(root: publicDirectory).respond) }

let server = HTTPServer(configuration: configuration, router: router)
do {
  try server.start()
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
let scheme = configuration.tls == nil ? "http" : "https"
print("listening on \(scheme)://\(configuration.host):\(server.port)")
fflush(nil)
try await server.run()
print("stopped")
fflush(nil)
