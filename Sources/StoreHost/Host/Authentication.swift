import HTTP

/// How a request proved it may act on a session.
enum Authentication {
  /// `Authorization: Bearer <token>`: not sent by browsers on their own, so no CSRF risk.
  case bearer
  /// The `storehost_token` cookie: browsers send it by themselves, so unsafe requests must
  /// also pass the CSRF checks.
  case cookie

  /// The cookie that carries a session's token.
  static let cookieName = "storehost_token"

  /// Checks that `request` carries a valid token for `sessionID`, and for cookie-carried
  /// tokens on unsafe methods, that it comes from this server's origin.
  static func authenticate(
    _ request: Request, for sessionID: SessionID, with signer: SessionTokenSigner
  ) throws(HTTPError) -> Authentication {
    if let authorization = request.headers["Authorization"] {
      let parts = authorization.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, parts[0].lowercased() == "bearer",
        signer.verify(String(parts[1]), for: sessionID)
      else { throw .unauthorized() }
      return .bearer
    }
    guard let token = request.cookie(cookieName), signer.verify(token, for: sessionID) else {
      throw .unauthorized()
    }
    if request.method != "GET" && request.method != "HEAD" {
      try checkSameOrigin(request)
    }
    return .cookie
  }

  /// Rejects a request whose `Origin` (when present) is not the origin of its `Host`.
  static func checkSameOrigin(_ request: Request) throws(HTTPError) {
    guard let origin = request.headers["Origin"] else { return }
    guard let host = request.headers["Host"],
      origin == "http://\(host)" || origin == "https://\(host)"
    else { throw .csrfRejected() }
  }

  /// The `Set-Cookie` value that gives a browser `token`.
  static func cookie(for token: String, secure: Bool) -> String {
    "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
  }
}
