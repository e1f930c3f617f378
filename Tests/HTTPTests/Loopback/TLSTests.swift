import Foundation
import HTTP
import Synchronization
import Testing

/// HTTPS through curl (OpenSSL) against a server on throwaway certificates: what each
/// profile offers, and certificates loaded again without a restart.
@Suite struct TLSTests {
  @Test func intermediateOffersTLS13AndTLS12WithECDHEAndAEADSuitesOnly() async throws {
    let files = try CertificateFiles()
    try await withServer(files.configuration()) { server in
      let url = "https://127.0.0.1:\(server.port)/hello"
      #expect(try await curl(["-k", url, url]).output == "hellohello")
      #expect(try await curl(["-k", "--tlsv1.3", url]).output == "hello")
      let tls12 = try await curl(["-k", "--tls-max", "1.2", "--ciphers", "ECDHE-ECDSA-CHACHA20-POLY1305", url])
      #expect(tls12.output == "hello")
      #expect(try await curl(["-k", "--tls-max", "1.3", "--curves", "X25519:secp384r1", url]).output == "hello")
      let plain = try await curl(["http://127.0.0.1:\(server.port)/hello"])
      #expect(plain.output != "hello")
      // Refused: TLS 1.0 and 1.1, CBC suites, RSA key exchange (by the suite's name), and
      // curves other than X25519, P-256 and P-384.
      #expect(try await curl(["-k", "--tlsv1.0", "--tls-max", "1.1", url]).status != 0)
      #expect(try await curl(["-k", "--tls-max", "1.2", "--ciphers", "ECDHE-ECDSA-AES128-SHA", url]).status != 0)
      #expect(try await curl(["-k", "--tls-max", "1.2", "--ciphers", "AES128-GCM-SHA256", url]).status != 0)
      #expect(try await curl(["-k", "--curves", "secp521r1:X448", url]).status != 0)
    }
  }

  @Test func modernOffersTLS13Only() async throws {
    let files = try CertificateFiles()
    try await withServer(files.configuration(profile: .modern)) { server in
      let url = "https://127.0.0.1:\(server.port)/hello"
      let tls13 = try await curl(["-k", "--tlsv1.3", url])
      #expect(tls13.output == "hello")
      #expect(try await curl(["-k", "--tls-max", "1.2", url]).status != 0)
    }
  }

  @Test func missingCertificateFailsToStart() {
    var configuration = testConfiguration()
    configuration.tls = TLSConfiguration(
      certificatePath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")
    let server = HTTPServer(configuration: configuration, router: Router())
    #expect(throws: TLSError.self) { try server.start() }
  }

  @Test func aRenewedCertificateIsServedToNewConnectionsWhileOpenOnesKeepTheirs() async throws {
    let files = try CertificateFiles()
    let reload = Mutex<(@Sendable () throws -> Void)?>(nil)
    var router = testRouter()
    router.get("/reload") { _ in
      try reload.withLock { $0 }?()
      return .text("reloaded")
    }
    var configuration = files.configuration()
    configuration.tls?.reloadCheckInterval = nil
    try await withServer(configuration, router: router) { server in
      reload.withLock { $0 = { try server.reloadCertificate() } }
      let base = "https://127.0.0.1:\(server.port)"
      #expect(try await subject(base) == "first")
      try files.renew(commonName: "second")
      #expect(try await subject(base) == "first")
      // One connection, begun on the old certificate (and TLS renegotiation being off, it
      // keeps it): it reloads with its first request and answers its second after that.
      let reused = try await curl(["-k", "-w", " %{num_connects} %{certs}\n", base + "/reload", base + "/hello"])
      let answers = reused.output.split(separator: "\n").filter { $0.hasPrefix("reloaded") || $0.hasPrefix("hello") }
      #expect(answers.count == 2, "\(reused.output)")
      #expect(answers.first?.hasPrefix("reloaded 1 Subject:CN = first") == true)
      #expect(answers.last?.hasPrefix("hello 0") == true)
      #expect(try await subject(base) == "second")
    }
  }

  @Test func aBadPairIsRefusedAndTheOldOneKept() async throws {
    let files = try CertificateFiles()
    var configuration = files.configuration()
    configuration.tls?.reloadCheckInterval = nil
    try await withServer(configuration) { server in
      let base = "https://127.0.0.1:\(server.port)"
      try files.renew(commonName: "mismatched", keyMatches: false)
      #expect(throws: TLSError.self) { try server.reloadCertificate() }
      #expect(try await subject(base) == "first")
      try "not a certificate".write(toFile: files.certificate, atomically: true, encoding: .utf8)
      #expect(throws: TLSError.self) { try server.reloadCertificate() }
      #expect(try await subject(base) == "first")
      try files.renew(commonName: "third")
      try server.reloadCertificate()
      #expect(try await subject(base) == "third")
    }
  }

  @Test func aChangeOfTheFilesIsPickedUpAndReported() async throws {
    let files = try CertificateFiles()
    let reports = Mutex<[TLSReload]>([])
    var configuration = files.configuration()
    configuration.tls?.reloadCheckInterval = .milliseconds(20)
    configuration.tls?.onReload = { reload in reports.withLock { $0.append(reload) } }
    try await withServer(configuration) { server in
      let base = "https://127.0.0.1:\(server.port)"
      // The two files are renamed into place one after the other, and a look may fall in
      // between: neither that pair nor the final one matches, so each is refused.
      try files.renew(commonName: "mismatched", keyMatches: false)
      try await until { !reports.withLock { $0.isEmpty } }
      #expect(reports.withLock { $0 }.allSatisfy { if case .refused = $0 { true } else { false } })
      #expect(try await subject(base) == "first")
      try files.renew(commonName: "second")
      try await until { reports.withLock { $0.last } == .reloaded(certificatePath: files.certificate) }
      #expect(try await subject(base) == "second")
    }
  }

  @Test func reloadingWithoutTLSIsAnError() async throws {
    try await withServer { server in
      #expect(throws: TLSError.self) { try server.reloadCertificate() }
    }
  }

  /// The common name of the certificate a new connection to `base` gets.
  private func subject(_ base: String) async throws -> String {
    let result = try await curl(["-k", "-o", "/dev/null", "-w", "%{certs}", base + "/hello"])
    let line = result.output.split(separator: "\n").first { $0.hasPrefix("Subject:CN = ") }
    return line.map { String($0.dropFirst("Subject:CN = ".count)) } ?? "none (curl exit \(result.status))"
  }

  /// Waits until `condition` holds, for at most 10 s.
  private func until(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
      try #require(ContinuousClock.now < deadline, "waited 10 s")
      try await Task.sleep(for: .milliseconds(10))
    }
  }
}

/// A throwaway P-256 certificate (`CN=first`) and key in a directory of their own, removed
/// when the value goes away.
private final class CertificateFiles: Sendable {
  let directory = NSTemporaryDirectory() + "tls-\(UUID().uuidString)"
  var certificate: String { directory + "/cert.pem" }
  var key: String { directory + "/key.pem" }

  init() throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try renew(commonName: "first")
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  func configuration(profile: TLSProfile = .intermediate) -> ServerConfiguration {
    var configuration = testConfiguration()
    configuration.tls = TLSConfiguration(certificatePath: certificate, privateKeyPath: key, profile: profile)
    return configuration
  }

  /// Puts a new pair in place, each file renamed over the old one as ACME clients do; with
  /// `keyMatches` false, the key belongs to another certificate.
  func renew(commonName: String, keyMatches: Bool = true) throws {
    let staging = directory + "/staging"
    try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
    try makePair(commonName: commonName, in: staging)
    if !keyMatches {
      try FileManager.default.removeItem(atPath: staging + "/key.pem")
      try FileManager.default.moveItem(atPath: staging + "/cert.pem", toPath: staging + "/kept.pem")
      try makePair(commonName: "other", in: staging)
      try FileManager.default.removeItem(atPath: staging + "/cert.pem")
      try FileManager.default.moveItem(atPath: staging + "/kept.pem", toPath: staging + "/cert.pem")
    }
    for name in ["key.pem", "cert.pem"] {
      guard rename(staging + "/" + name, directory + "/" + name) == 0 else {
        throw CocoaError(.fileWriteUnknown)
      }
    }
  }

  private func makePair(commonName: String, in directory: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-subj", "/CN=\(commonName)", "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
  }
}
