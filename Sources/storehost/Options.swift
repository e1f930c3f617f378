import Foundation
import HTTP
import StoreHost

/// Everything the `storehost` command can be told, with its defaults.
struct Settings {
  var server = ServerConfiguration()
  var host = SessionHostConfiguration()
  var dataDirectory = ".storehost"
  var publicDirectory = "Public"
  var tlsCertificate: String?
  var tlsKey: String?
  var tlsProfile = TLSProfile.intermediate
  /// `nil`: reload the certificate only on SIGHUP.
  var tlsReloadInterval: Duration? = .seconds(10)
  /// Where the token secret comes from; `nil`: generated into the data directory.
  var secret: SecretSource?
  /// A secret being rotated out: what it signed is still accepted.
  var previousSecret: SecretSource?
  /// `postgres://...`: share sessions with other processes through this database.
  var database: String?
  /// The URL other processes reach this one at; defaults to `http://HOST:PORT`.
  var advertise: String?
  var logLevel = LogLevel.info

  init() {
    server.port = 8080
    host.historyLength = 500
  }
}

/// Where a token secret comes from.
enum SecretSource {
  /// The secret itself, from `--secret` or its environment variable.
  case text(String)
  /// A file holding it (``SessionSecret/read(file:)``).
  case file(String)

  func bytes() throws(SessionSecretError) -> [UInt8] {
    switch self {
    case .text(let text): Array(text.utf8)
    case .file(let path): try SessionSecret.read(file: path)
    }
  }
}

extension Settings {
  /// The token signer for the secrets given, or the one generated into the data directory.
  func makeTokenSigner() throws -> SessionTokenSigner {
    try SessionTokenSigner(
      secret: secret?.bytes() ?? SessionSecret.loadOrCreate(inDirectory: dataDirectory),
      previousSecret: previousSecret?.bytes())
  }
}

/// One setting: a flag, the environment variable that sets it too, and how it applies.
struct Option: Sendable {
  let flag: String
  let environment: String
  /// The value's placeholder in `--help`, or `nil` for an on/off flag.
  let valueName: String?
  let help: String
  let defaultValue: String
  let apply: @Sendable (inout Settings, String) throws(OptionError) -> Void
}

struct OptionError: Error, CustomStringConvertible {
  let description: String
}

extension Option {
  static let all: [Option] = [
    Option(
      flag: "--host", environment: "STOREHOST_HOST", valueName: "ADDRESS",
      help: "Address to listen on.", defaultValue: "127.0.0.1"
    ) { settings, value throws(OptionError) in settings.server.host = value },
    .number(
      "--port", "STOREHOST_PORT", unit: "PORT", default: 8080, in: 0...65535,
      help: "Port to listen on; 0 picks a free port (printed on start)."
    ) { $0.server.port = $1 },
    Option(
      flag: "--data", environment: "STOREHOST_DATA", valueName: "DIR",
      help: "Directory for the session database and the token secret.", defaultValue: ".storehost"
    ) { settings, value throws(OptionError) in settings.dataDirectory = value },
    Option(
      flag: "--public", environment: "STOREHOST_PUBLIC", valueName: "DIR",
      help: "Directory of static files served at /.", defaultValue: "Public"
    ) { settings, value throws(OptionError) in settings.publicDirectory = value },
    Option(
      flag: "--tls-cert", environment: "STOREHOST_TLS_CERT", valueName: "FILE",
      help: "PEM certificate chain; with --tls-key, serve HTTPS.", defaultValue: "none"
    ) { settings, value throws(OptionError) in settings.tlsCertificate = value },
    Option(
      flag: "--tls-key", environment: "STOREHOST_TLS_KEY", valueName: "FILE",
      help: "PEM private key for --tls-cert.", defaultValue: "none"
    ) { settings, value throws(OptionError) in settings.tlsKey = value },
    .choice(
      "--tls-profile", "STOREHOST_TLS_PROFILE", TLSProfile.allCases.map { ($0.rawValue, $0) }, default: "intermediate",
      help: "Mozilla's TLS configuration: intermediate (TLS 1.3, and 1.2 with ECDHE and AEAD suites) or modern (TLS 1.3 only)."
    ) { $0.tlsProfile = $1 },
    .number(
      "--tls-reload-interval", "STOREHOST_TLS_RELOAD_INTERVAL", unit: "SECONDS", default: 10, in: 0...86400,
      help: "How often the certificate and key files are checked for a change and reloaded (0: only on SIGHUP)."
    ) { $0.tlsReloadInterval = $1 == 0 ? nil : .seconds($1) },
    Option(
      flag: "--behind-tls-proxy", environment: "STOREHOST_BEHIND_TLS_PROXY", valueName: nil,
      help: "TLS ends at a proxy in front: send Strict-Transport-Security and mark the session cookie Secure.",
      defaultValue: "off"
    ) { settings, value throws(OptionError) in
      let behindProxy = try boolean(value, "--behind-tls-proxy")
      settings.server.securityHeaders.tlsTerminatedByProxy = behindProxy
      settings.host.secureCookies = behindProxy
    },
    .number(
      "--hsts-max-age", "STOREHOST_HSTS_MAX_AGE", unit: "SECONDS", default: 63_072_000, in: 0...315_360_000,
      help: "max-age of Strict-Transport-Security, sent over HTTPS (0 tells browsers to forget it)."
    ) { $0.server.securityHeaders.strictTransportSecurity = "max-age=\($1)" },
    Option(
      flag: "--content-security-policy", environment: "STOREHOST_CONTENT_SECURITY_POLICY", valueName: "POLICY",
      help: "Content-Security-Policy of every answer; 'off' sends none.",
      defaultValue: SecurityHeaders.defaultContentSecurityPolicy
    ) { settings, value throws(OptionError) in
      settings.server.securityHeaders.contentSecurityPolicy = value == "off" ? nil : value
    },
    .choice(
      "--durability", "STOREHOST_DURABILITY", Durability.allCases.map { ($0.rawValue, $0) }, default: "fast",
      help: "strict: answer 202 only once the new state is on disk. fast: save within 100 ms."
    ) { $0.host.durability = $1 },
    Option(
      flag: "--database", environment: "STOREHOST_DATABASE", valueName: "URL",
      help: "postgres://user@host:port/db: share sessions with other storehost processes (same --secret).",
      defaultValue: "embedded SQLite in DIR"
    ) { settings, value throws(OptionError) in
      guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
        throw OptionError(description: "--database must be a postgres:// URL, not '\(value)'")
      }
      settings.database = value
    },
    Option(
      flag: "--advertise", environment: "STOREHOST_ADVERTISE", valueName: "URL",
      help: "With --database: where the other processes reach this one, e.g. http://10.0.0.5:8080.",
      defaultValue: "http://HOST:PORT"
    ) { settings, value throws(OptionError) in settings.advertise = value },
    Option(
      flag: "--secret", environment: "STOREHOST_SECRET", valueName: "TEXT",
      help: "Secret for signing session tokens (32+ bytes). Generated into DIR/session-secret if absent.",
      defaultValue: "generated"
    ) { settings, value throws(OptionError) in settings.secret = .text(value) },
    Option(
      flag: "--secret-file", environment: "STOREHOST_SECRET_FILE", valueName: "FILE",
      help: "File holding the secret (a trailing newline is not part of it), instead of --secret.",
      defaultValue: "none"
    ) { settings, value throws(OptionError) in settings.secret = .file(value) },
    Option(
      flag: "--previous-secret", environment: "STOREHOST_PREVIOUS_SECRET", valueName: "TEXT",
      help: "A secret being rotated out: the tokens, watch tickets and forwards it signed are still accepted.",
      defaultValue: "none"
    ) { settings, value throws(OptionError) in settings.previousSecret = .text(value) },
    Option(
      flag: "--previous-secret-file", environment: "STOREHOST_PREVIOUS_SECRET_FILE", valueName: "FILE",
      help: "File holding the previous secret, instead of --previous-secret.", defaultValue: "none"
    ) { settings, value throws(OptionError) in settings.previousSecret = .file(value) },
    .number(
      "--max-sessions", "STOREHOST_MAX_SESSIONS", unit: "N", default: 10000, in: 1...10_000_000,
      help: "Most sessions in memory (sessions at rest do not count); past it the least recently used idle one rests, or 503."
    ) { $0.host.limits.maxSessions = $1 },
    .number(
      "--rest-after", "STOREHOST_REST_AFTER", unit: "SECONDS", default: 60, in: 1...31_536_000,
      help: "Save sessions with no request, open stream or running effect for this long, and take them out of memory until their next request."
    ) { $0.host.limits.restAfter = .seconds($1) },
    .number(
      "--idle-timeout", "STOREHOST_IDLE_TIMEOUT", unit: "SECONDS", default: 1800, in: 1...31_536_000,
      help: "End (delete) sessions with no action and no open stream for this long, in memory or at rest."
    ) { $0.host.limits.idleTimeout = .seconds($1) },
    .number(
      "--actions-per-second", "STOREHOST_ACTIONS_PER_SECOND", unit: "N", default: 20, in: 1...1_000_000,
      help: "Sustained actions per second per session; more answers 429."
    ) { $0.host.limits.actionsPerSecond = Double($1) },
    .number(
      "--action-burst", "STOREHOST_ACTION_BURST", unit: "N", default: 40, in: 1...1_000_000,
      help: "Actions a session may send at once before the rate applies."
    ) { $0.host.limits.actionBurst = $1 },
    .number(
      "--max-action-bytes", "STOREHOST_MAX_ACTION_BYTES", unit: "BYTES", default: 65536, in: 1...(64 << 20),
      help: "Largest actions request body; larger answers 413."
    ) { $0.host.limits.maxActionBodyBytes = $1 },
    .number(
      "--max-batch", "STOREHOST_MAX_BATCH", unit: "N", default: 32, in: 1...100_000,
      help: "Most actions in one request; more answers 413."
    ) { $0.host.limits.maxActionsPerBatch = $1 },
    .number(
      "--max-streams-per-session", "STOREHOST_MAX_STREAMS_PER_SESSION", unit: "N", default: 8, in: 1...10_000,
      help: "Most event streams watching one session (a stream of several counts once for each); more answers 429."
    ) { $0.host.limits.maxEventStreamsPerSession = $1 },
    .number(
      "--max-effects-per-session", "STOREHOST_MAX_EFFECTS_PER_SESSION", unit: "N", default: 64, in: 1...1_000_000,
      help: "Most running effects per session; more actions answer 429."
    ) { $0.host.limits.maxRunningEffectsPerSession = $1 },
    .number(
      "--event-history", "STOREHOST_EVENT_HISTORY", unit: "N", default: 32, in: 1...10_000,
      help: "Recent versions kept per session for Last-Event-ID resume."
    ) { $0.host.limits.eventHistoryLength = $1 },
    .number(
      "--history", "STOREHOST_HISTORY", unit: "N", default: 500, in: 0...100_000,
      help: "Steps of each session's history kept and saved with it (actions, who sent them, versions); 0 keeps none and deletes what was kept."
    ) { $0.host.historyLength = $1 },
    .number(
      "--history-bytes", "STOREHOST_HISTORY_BYTES", unit: "BYTES", default: 4 << 20, in: 1024...(1 << 30),
      help: "Most bytes of each session's history kept (its steps' JSON); older steps are dropped past it."
    ) { $0.host.limits.maxHistoryBytes = $1 },
    .number(
      "--max-state-bytes", "STOREHOST_MAX_STATE_BYTES", unit: "BYTES", default: 1 << 20, in: 1024...(1 << 30),
      help: "Largest session state, as bytes of JSON, an action may leave; one that would pass it changes nothing and answers 413."
    ) { $0.host.limits.maxStateBytes = $1 },
    .number(
      "--idempotency-ttl", "STOREHOST_IDEMPOTENCY_TTL", unit: "SECONDS", default: 600, in: 1...86_400,
      help: "How long the answer to an Idempotency-Key request is kept; a repeat after that is applied anew."
    ) { $0.host.limits.idempotencyKeyLifetime = .seconds($1) },
    .number(
      "--idempotency-answers", "STOREHOST_IDEMPOTENCY_ANSWERS", unit: "N", default: 256, in: 1...100_000,
      help: "Most Idempotency-Key answers a session keeps (the newest); a repeat of an older one is applied anew."
    ) { $0.host.limits.maxIdempotencyAnswers = $1 },
    .number(
      "--max-connections", "STOREHOST_MAX_CONNECTIONS", unit: "N", default: 20000, in: 1...1_000_000,
      help: "Most open HTTP connections; more answer 503."
    ) { $0.server.limits.maxConnections = $1 },
    .number(
      "--heartbeat", "STOREHOST_HEARTBEAT", unit: "SECONDS", default: 15, in: 1...3600,
      help: "Interval of ': ping' comments on event streams."
    ) { $0.server.heartbeatInterval = .seconds($1) },
    .number(
      "--busy-poll", "STOREHOST_BUSY_POLL", unit: "MICROSECONDS", default: 50, in: 0...10_000,
      help: "How long an event loop that just had work keeps polling before it sleeps (lower latency; 0: off)."
    ) { $0.server.busyPoll = .microseconds($1) },
    .number(
      "--shutdown-timeout", "STOREHOST_SHUTDOWN_TIMEOUT", unit: "SECONDS", default: 10, in: 0...3600,
      help: "Longest wait for in-flight requests on SIGTERM before closing them."
    ) { $0.server.shutdownTimeout = .seconds($1) },
    Option(
      flag: "--access-log", environment: "STOREHOST_ACCESS_LOG", valueName: nil,
      help: "Write a JSON line per request to standard error.", defaultValue: "off"
    ) { settings, value throws(OptionError) in settings.server.accessLog = try boolean(value, "--access-log") },
    .choice(
      "--log-level", "STOREHOST_LOG_LEVEL", LogLevel.allCases.map { ($0.name, $0) }, valueName: "LEVEL",
      default: "info", help: "debug, info, warning or error: the least severe JSON log line written to standard error."
    ) { $0.logLevel = $1 },
  ]

  /// An option whose value names one of `choices` (in any case), handed to `set`; its
  /// placeholder in `--help` lists them unless `valueName` is given.
  private static func choice<Value: Sendable>(
    _ flag: String, _ environment: String, _ choices: [(name: String, value: Value)], valueName: String? = nil,
    default defaultValue: String, help: String, set: @escaping @Sendable (inout Settings, Value) -> Void
  ) -> Option {
    let names = choices.map(\.name)
    return Option(
      flag: flag, environment: environment, valueName: valueName ?? names.joined(separator: "|"), help: help,
      defaultValue: defaultValue
    ) { settings, value throws(OptionError) in
      guard let choice = choices.first(where: { $0.name == value.lowercased() }) else {
        let listed = names.dropLast().joined(separator: ", ") + " or " + names.last!
        throw OptionError(description: "\(flag) must be \(listed), not '\(value)'")
      }
      set(&settings, choice.value)
    }
  }

  /// An option whose value is a whole number in `range`, handed to `set`.
  private static func number(
    _ flag: String, _ environment: String, unit: String, default defaultValue: Int, in range: ClosedRange<Int>,
    help: String, set: @escaping @Sendable (inout Settings, Int) -> Void
  ) -> Option {
    Option(
      flag: flag, environment: environment, valueName: unit, help: help, defaultValue: String(defaultValue)
    ) { settings, value throws(OptionError) in set(&settings, try integer(value, flag, in: range)) }
  }

  private static func integer(_ value: String, _ flag: String, in range: ClosedRange<Int>) throws(OptionError) -> Int {
    guard let number = Int(value), range.contains(number) else {
      throw OptionError(description: "\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
    }
    return number
  }

  private static func boolean(_ value: String, _ flag: String) throws(OptionError) -> Bool {
    switch value.lowercased() {
    case "1", "true", "yes", "on": return true
    case "0", "false", "no", "off": return false
    default: throw OptionError(description: "\(flag) must be true or false, not '\(value)'")
    }
  }
}

/// Reads the settings from the environment, then the command line (flags win).
/// - Returns: `nil` when `--help` was asked for.
func parseSettings(
  arguments: [String], environment: [String: String]
) throws(OptionError) -> Settings? {
  var settings = Settings()
  for option in Option.all {
    if let value = environment[option.environment] { try option.apply(&settings, value) }
  }
  var remaining = arguments[...]
  while let argument = remaining.popFirst() {
    if argument == "--help" || argument == "-h" { return nil }
    let (flag, inlineValue) = splitFlag(argument)
    guard let option = Option.all.first(where: { $0.flag == flag }) else {
      throw OptionError(description: "unknown option '\(argument)'; see --help")
    }
    if option.valueName == nil {
      try option.apply(&settings, inlineValue ?? "true")
    } else {
      guard let value = inlineValue ?? remaining.popFirst() else {
        throw OptionError(description: "\(flag) needs a value (\(option.valueName!))")
      }
      try option.apply(&settings, value)
    }
  }
  if settings.database != nil, settings.secret == nil {
    throw OptionError(
      description: "--database needs --secret or --secret-file: every process must sign tokens with the same secret")
  }
  if (settings.tlsCertificate == nil) != (settings.tlsKey == nil) {
    throw OptionError(description: "--tls-cert and --tls-key go together")
  }
  if let certificate = settings.tlsCertificate, let key = settings.tlsKey {
    settings.server.tls = TLSConfiguration(certificatePath: certificate, privateKeyPath: key, profile: settings.tlsProfile)
    settings.server.tls?.reloadCheckInterval = settings.tlsReloadInterval
    settings.host.secureCookies = true
  }
  return settings
}

/// `--flag=value` -> (`--flag`, `value`); `--flag` -> (`--flag`, nil).
private func splitFlag(_ argument: String) -> (String, String?) {
  guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
  return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
}

/// The `--help` text: every option with its variable and default.
func usage() -> String {
  var lines = [
    "usage: storehost [options]",
    "       storehost healthcheck [--ready] [options]",
    "       storehost schema [--typescript]",
    "       storehost history export-test [--data DIR] ID",
    "       storehost sessions check [--data DIR | --database URL]",
    "       storehost deploy-check [--data DIR | --database URL] [--sample N] [--allow ACTION_PATH]... [--timeout S] [--json]",
    "",
    "Serves the StoreHost demo: one root store per browser session, over HTTP.",
    "Each option can also be set with its environment variable; flags win.",
    "'healthcheck' asks the server those options describe for /healthz (with --ready, /readyz); exits 0 on 200.",
    "'schema' prints the JSON Schema of GET /api/schema, or its TypeScript declarations.",
    "'history export-test' prints the Swift test that rebuilds session ID from its saved history.",
    "'sessions check' reads every saved session as a start would; 'deploy-check' also replays recent histories.",
    "",
  ]
  for option in Option.all {
    let flag = option.valueName.map { "\(option.flag) \($0)" } ?? option.flag
    lines.append("  \(flag.padding(toLength: 34, withPad: " ", startingAt: 0))\(option.help)")
    lines.append("  \("".padding(toLength: 34, withPad: " ", startingAt: 0))[\(option.environment); default: \(option.defaultValue)]")
  }
  return lines.joined(separator: "\n")
}
