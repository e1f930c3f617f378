// The session host serving the seed's Counter (plus one value shared by every session), for
// the session benchmarks:
// `storehost-counter-server --port 0 --data DIR [--durability strict]`. Prints the same
// start line as `storehost`.
import ComposableArchitecture
import Foundation
import HTTP
import StoreHost

@Reducer
struct Counter {
  @ObservableState
  struct State: Equatable, Codable {
    var count = 0
    @Shared(.inMemory("everyone")) var everyone = 0
  }

  enum Action: Equatable {
    case decrementButtonTapped
    case incrementButtonTapped
    case everyoneIncrementButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped: state.count -= 1
      case .incrementButtonTapped: state.count += 1
      case .everyoneIncrementButtonTapped: state.$everyone.withLock { $0 += 1 }
      }
      return .none
    }
  }
}

var port = 0
var dataDirectory = NSTemporaryDirectory() + "storehost-counter-\(getpid())"
var configuration = SessionHostConfiguration()
configuration.limits.maxSessions = 100_000
configuration.limits.actionsPerSecond = 1_000_000
configuration.limits.actionBurst = 1_000_000
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
  switch flag {
  case "--port": port = arguments.popFirst().flatMap(Int.init) ?? 0
  case "--data": dataDirectory = arguments.popFirst() ?? dataDirectory
  case "--durability": configuration.durability = arguments.popFirst().flatMap(Durability.init) ?? .fast
  default:
    FileHandle.standardError.write(Data("unknown flag \(flag)\n".utf8))
    exit(2)
  }
}

try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
let host = SessionHost(
  configuration: configuration,
  persistence: try await SQLiteSessionPersistence.open(
    path: dataDirectory + "/sessions.sqlite", durability: configuration.durability),
  tokenSigner: try SessionTokenSigner(secret: SessionSecret.loadOrCreate(inDirectory: dataDirectory)),
  initialState: Counter.State()
) {
  Counter()
}
var router = Router()
host.addRoutes(to: &router)
var serverConfiguration = ServerConfiguration()
serverConfiguration.port = port
serverConfiguration.limits.maxConnections = 100_000
let server = HTTPServer(configuration: serverConfiguration, router: router)
try server.start()
print("StoreHost serving http://127.0.0.1:\(server.port) (counter benchmark)")
fflush(nil)
try await server.run()
await host.shutdown()
