import HTTP

/// How a request proved it may act on a session: the token it carried, and where.
struct Authentication {
  /// Where the token came from.
  enum Carrier {
    /// `Authorization: Bearer <token>`: not sent by browsers on their own, so no CSRF risk.
    case bearer
    /// A `storehost_token` cookie: browsers send it by themselves, so unsafe requests must
    /// also pass the CSRF checks.
    case cookie
  }

  let carrier: Carrier
  /// The verified token, for forwarding the request to the session's owner.
  let token: String

  /// The cookie that carries a session's token.
  static let cookieName = "storehost_token"

  /// The token of an `Authorization: Bearer <token>` header's value (the scheme's name in
  /// any case), or `nil` for another scheme or no token.
  static func bearerToken(in authorization: String) -> String? {
    let utf8 = authorization.utf8
    guard let space = utf8.firstIndex(of: UInt8(ascii: " ")),
      utf8[..<space].elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 })
    else { return nil }
    let token = authorization[utf8.index(after: space)...]
    return token.isEmpty ? nil : String(token)
  }

  /// Checks that `request` carries a valid token for `sessionID`, and for cookie-carried
  /// tokens on unsafe methods, that it comes from this server's origin. A browser holding
  /// several sessions sends one cookie per session: the one for `sessionID` counts.
  static func authenticate(
    _ request: Request, for sessionID: SessionID, with signer: SessionTokenSigner
  ) throws(HTTPError) -> Authentication {
    if let authorization = request.headers["Authorization"] {
      guard let token = bearerToken(in: authorization), signer.verify(token, for: sessionID) else {
        throw .unauthorized()
      }
      return Authentication(carrier: .bearer, token: token)
    }
    let candidates = request.cookies.lazy.filter { $0.name == cookieName }.map(\.value)
    guard let token = candidates.first(where: { signer.verify($0, for: sessionID) }) else {
      throw .unauthorized()
    }
    if request.method != "GET" && request.method != "HEAD" {
      try checkSameOrigin(request)
    }
    return Authentication(carrier: .cookie, token: token)
  }

  /// Rejects a request that says it comes from another site: by `Sec-Fetch-Site`
  /// (`cross-site` or `same-site`), or by an `Origin` that is not the origin of its `Host`.
  static func checkSameOrigin(_ request: Request) throws(HTTPError) {
    if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site == "cross-site" || site == "same-site" {
      throw .csrfRejected()
    }
    guard let origin = request.headers["Origin"] else { return }
    guard let host = request.headers["Host"],
      origin == "http://\(host)" || origin == "https://\(host)"
    else { throw .csrfRejected() }
  }

  /// The `Set-Cookie` value that gives a browser `token` for the session `id`: sent only to
  /// that session's URLs, so one browser may hold any number of sessions.
  static func cookie(for token: String, session id: SessionID, secure: Bool) -> String {
    "\(cookieName)=\(token); Path=/api/sessions/\(id); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
  }
}
