import Composable
import Foundation
import HTTP
import StoreHost
import StoreHostDemo
import StoreHostPostgres

/// Writes `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
  FileHandle.standardError.write(Data("storehost: \(message)\n".utf8))
  exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "schema" { exit(SchemaCommand.run(Array(arguments.dropFirst()))) }
if arguments.first == "sessions" { exit(SessionsCommand.run(Array(arguments.dropFirst()))) }
if arguments.first == "deploy-check" { exit(DeployCheckCommand.run(Array(arguments.dropFirst()))) }
if arguments.first == "history" { exit(HistoryCommand.run(Array(arguments.dropFirst()))) }
let isHealthCheck = arguments.first == "healthcheck"
var healthCheckPath = HealthCheck.livenessPath
if isHealthCheck {
  arguments.removeFirst()
  if let ready = arguments.firstIndex(of: "--ready") {
    arguments.remove(at: ready)
    healthCheckPath = HealthCheck.readinessPath
  }
}

let settings: Settings
do {
  guard let parsed = try parseSettings(arguments: arguments, environment: ProcessInfo.processInfo.environment)
  else {
    print(usage())
    exit(0)
  }
  settings = parsed
} catch {
  fail(error.description, status: 2)
}
if isHealthCheck { exit(HealthCheck.run(settings, path: healthCheckPath)) }

let log = Logger(level: settings.logLevel)
log.info("starting", [
  "host": settings.server.host, "port": settings.server.port, "tls": settings.server.tls != nil,
  "data": settings.dataDirectory, "public": settings.publicDirectory,
  "durability": settings.host.durability.rawValue, "pid": Int(getpid()),
])
log.debug("limits", [
  "max_sessions": settings.host.limits.maxSessions, "max_connections": settings.server.limits.maxConnections,
  "idle_timeout": "\(settings.host.limits.idleTimeout)", "shutdown_timeout": "\(settings.server.shutdownTimeout)",
])

do {
  try FileManager.default.createDirectory(atPath: settings.dataDirectory, withIntermediateDirectories: true)
  let tokenSigner = try settings.makeTokenSigner()
  let persistence: any SessionPersistence
  let cluster: PostgresCluster?
  if let database = settings.database {
    let shared = try await PostgresSessionPersistence.open(
      url: database, processID: PostgresCluster.newProcessID(), durability: settings.host.durability)
    persistence = shared
    cluster = PostgresCluster(persistence: shared)
  } else {
    persistence = try await SQLiteSessionPersistence.open(
      path: settings.dataDirectory + "/sessions.sqlite", durability: settings.host.durability)
    cluster = nil
  }
  // Shared values (`@Shared(.appStorage(...))`) live beside the sessions; with a database,
  // the demo's shared counter lives there, shared by every process.
  let sharedStorage = AppStorage(directory: URL(fileURLWithPath: settings.dataDirectory + "/shared"))
  let sharedCountKey = cluster.map { ClusterSharedKey<Int>(key: "sharedCount", values: $0.sharedValues) }
  var hostConfiguration = settings.host
  hostConfiguration.onUnreadableSession = { session in
    log.warning("session unreadable, kept", [
      "session": session.id.rawValue, "state_version": session.stateVersion, "error": session.reason,
    ])
  }
  hostConfiguration.onStorageHealthChange = { change in
    switch change {
    case .failing(let cause):
      log.error("saving sessions fails", ["error": cause, "database": settings.database == nil ? "sqlite" : "postgres"])
    case .recovered(let duration, let failedWrites):
      log.warning("saving sessions works again", [
        "failed_for_ms": Int(duration / .milliseconds(1)), "failed_writes": failedWrites,
      ])
    }
  }
  let host = SessionHost(
    configuration: hostConfiguration,
    persistence: persistence,
    cluster: cluster,
    tokenSigner: tokenSigner,
    initialState: AppFeature.State(),
    reducer: { AppFeature() },
    withDependencies: { [sharedStorage] in
      $0.defaultAppStorage = sharedStorage
      $0.sharedCountKey = sharedCountKey
    },
    resumedAction: .sessionResumed
  )
  // The PostgreSQL URL may hold a password, so only its kind is logged.
  let database = settings.database == nil ? settings.dataDirectory + "/sessions.sqlite" : "postgres"
  log.info("sessions at rest", ["database": database])

  var router = Router()
  host.addRoutes(to: &router)
  router.setFallback(StaticFiles(root: settings.publicDirectory).respond)
  var serverConfiguration = settings.server
  serverConfiguration.tls?.onReload = { reload in
    switch reload {
    case .reloaded(let certificate):
      log.info("TLS certificate reloaded", ["certificate": certificate])
    case .refused(let error):
      log.error("TLS certificate refused, the previous one is still served", ["error": error.description])
    }
  }
  serverConfiguration.eventStreamBufferLimit = max(serverConfiguration.eventStreamBufferLimit, host.eventStreamBufferLimit)
  let server = HTTPServer(configuration: serverConfiguration, router: router)
  try server.start()
  host.startEvictingIdleSessions()
  host.bringBackRecentlyActiveSessions()
  let scheme = settings.server.tls == nil ? "http" : "https"
  try await host.joinCluster(advertising: settings.advertise ?? "\(scheme)://\(settings.server.host):\(server.port)")
  print("StoreHost serving \(scheme)://\(settings.server.host):\(server.port) (saved sessions load on first use)")
  fflush(nil)
  log.info("serving", ["url": "\(scheme)://\(settings.server.host):\(server.port)", "port": server.port])
  try await server.run()
  log.info("connections drained, saving sessions")
  await host.shutdown()
  sharedStorage.flush()
  log.info("stopped")
} catch {
  log.error("stopped on an error", ["error": "\(error)"])
  exit(1)
}
