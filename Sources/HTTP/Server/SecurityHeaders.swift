/// The headers a server adds to every answer (pages, JSON, errors, event streams, static
/// files) so that browsers protect its pages: what a page may load and run, who may frame
/// it, what leaks to other sites, and that the host is only ever reached over HTTPS.
///
/// Each is on by default. Set one to `nil` to leave it out, or to another value to change
/// it for the whole server. A handler that sets one of these headers on its own response
/// sends its value instead, for that response only (a page meant to be framed by a partner
/// sets its own `Content-Security-Policy`, say).
///
/// The header bytes are made once when the server starts; each answer copies them.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.securityHeaders.contentSecurityPolicy =
///   SecurityHeaders.defaultContentSecurityPolicy + "; img-src 'self' https://images.example.com"
/// ```
public struct SecurityHeaders: Sendable, Equatable {
  /// `default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`.
  public static let defaultContentSecurityPolicy =
    "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

  /// `Content-Security-Policy`. Default ``defaultContentSecurityPolicy``: scripts, styles,
  /// images, fonts, `fetch` and event streams come from the page's own origin only, so no
  /// inline `<script>`, `<style>`, `style="…"` or event-handler attribute runs, nor `eval`;
  /// no `<base>` may move relative URLs, forms submit only to the origin, and no page may
  /// frame this one. Pages that load from elsewhere (a CDN, images of another host) add
  /// those sources.
  public var contentSecurityPolicy: String? = Self.defaultContentSecurityPolicy
  /// `X-Content-Type-Options`. Default `nosniff`: browsers take `Content-Type` as sent, so
  /// JSON or text is never run as a script or applied as a style.
  public var contentTypeOptions: String? = "nosniff"
  /// `X-Frame-Options`. Default `DENY`: framing refused by browsers older than the policy's
  /// `frame-ancestors` (newer ones follow the policy and ignore this). Set it to `nil` when
  /// the policy allows some framing.
  public var frameOptions: String? = "DENY"
  /// `Referrer-Policy`. Default `same-origin`: requests and links to other sites carry no
  /// `Referer`, so the app's paths (which name sessions) stay on its own origin.
  public var referrerPolicy: String? = "same-origin"
  /// `Cross-Origin-Opener-Policy`. Default `same-origin`: a page of another origin that
  /// opens this one, or that this one opens, gets no handle on its window.
  public var crossOriginOpenerPolicy: String? = "same-origin"
  /// `Strict-Transport-Security`, sent only when the server serves HTTPS itself, or when
  /// ``tlsTerminatedByProxy``. Default `max-age=63072000` (two years, as Mozilla
  /// recommends): a browser that saw it reaches this host only over HTTPS for that long.
  /// Add `; includeSubDomains` only when every subdomain serves HTTPS; `max-age=0` makes
  /// browsers forget it.
  public var strictTransportSecurity: String? = "max-age=63072000"
  /// TLS ends at a proxy or load balancer in front of this server, which therefore speaks
  /// plain HTTP while browsers speak HTTPS: send ``strictTransportSecurity`` all the same.
  /// Default `false`.
  public var tlsTerminatedByProxy = false

  /// Every header on, with the defaults above.
  public init() {}

  /// The headers sent, as (name, value) in a fixed order; ``strictTransportSecurity`` only
  /// when `https` (the server serves TLS) or ``tlsTerminatedByProxy``.
  func fields(https: Bool) -> [(name: String, value: String)] {
    let all: [(String, String?)] = [
      ("Content-Security-Policy", contentSecurityPolicy),
      ("X-Content-Type-Options", contentTypeOptions),
      ("X-Frame-Options", frameOptions),
      ("Referrer-Policy", referrerPolicy),
      ("Cross-Origin-Opener-Policy", crossOriginOpenerPolicy),
      ("Strict-Transport-Security", https || tlsTerminatedByProxy ? strictTransportSecurity : nil),
    ]
    return all.compactMap { name, value in value.map { (name, $0) } }
  }
}
