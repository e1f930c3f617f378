import Foundation
import FoundationNetworking
import HTTP

/// Hands a request for a session to the process that owns it, over HTTP, and returns that
/// process's answer as is.
///
/// The forwarding process has already authenticated the request (and run the CSRF checks of
/// a cookie), so the token always travels as `Authorization: Bearer`. The
/// ``forwardedHeader`` marks the copy: its receiver never forwards it again, and answers
/// ``HTTPError/sessionMoved()`` if the session left it meanwhile.
struct RequestForwarder: Sendable {
  /// The header that marks a forwarded request; its value is the forwarding process's id.
  static let forwardedHeader = "X-StoreHost-Forwarded"

  let processID: String
  /// Longer than the longest `?wait=effects` answer (30 s).
  let timeout: TimeInterval = 35
  /// Up to 64 requests in flight per owner: a strict request waits for the owner's commit,
  /// so URLSession's default of 6 would cap forwarding at 6 commits at a time.
  private let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 64
    return URLSession(configuration: configuration)
  }()

  init(processID: String) {
    self.processID = processID
  }

  /// Why a forwarded request got no answer.
  enum Failure: Error {
    /// The owner could not be reached: the request was not delivered, so it may be retried.
    case notDelivered
    /// The connection failed after the request was sent: the owner may have applied it.
    case outcomeUnknown
  }

  /// Sends `request` with `token` to the process at `address` (`http://host:port`).
  /// - Throws: A ``Failure`` when no answer came.
  func forward(_ request: Request, token: String, to address: String) async throws(Failure) -> Response {
    do {
      return try await send(request, token: token, to: address)
    } catch let error as URLError where [.cannotConnectToHost, .cannotFindHost, .badURL].contains(error.code) {
      throw .notDelivered
    } catch {
      throw .outcomeUnknown
    }
  }

  private func send(_ request: Request, token: String, to address: String) async throws -> Response {
    let query = request.query.map { "?" + $0 } ?? ""
    guard let url = URL(string: address + request.path + query) else { throw URLError(.badURL) }
    var forwarded = URLRequest(url: url, timeoutInterval: timeout)
    forwarded.httpMethod = request.method
    forwarded.httpBody = request.body.isEmpty ? nil : Data(request.body)
    forwarded.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    forwarded.setValue(processID, forHTTPHeaderField: Self.forwardedHeader)
    // A fresh connection per request: on a reused one, libcurl silently resends a request
    // whose connection died before any answer, and a retry that then fails to connect would
    // look undelivered though the owner may have applied the first copy.
    forwarded.setValue("close", forHTTPHeaderField: "Connection")
    if let contentType = request.headers["Content-Type"] {
      forwarded.setValue(contentType, forHTTPHeaderField: "Content-Type")
    }
    let (body, answer) = try await session.data(for: forwarded)
    guard let answer = answer as? HTTPURLResponse else { throw URLError(.badServerResponse) }
    var headers: HTTPHeaders = [:]
    for name in ["Content-Type", "Retry-After", "WWW-Authenticate", "Allow"] {
      if let value = answer.value(forHTTPHeaderField: name) { headers.set(name, value) }
    }
    return Response(status: answer.statusCode, headers: headers, body: .bytes(Array(body)))
  }
}
