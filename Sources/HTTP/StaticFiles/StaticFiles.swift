import Glibc

/// Serves the files under one directory; meant as the router's fallback:
/// `router.setFallback(StaticFiles(root: "Public").respond)`.
///
/// GET and HEAD only. `/` and directories serve their `index.html`; there are no
/// directory listings. Answers carry a content type from the extension, an `ETag` (size
/// and modification time) and `Last-Modified`; a matching `If-None-Match` (or, without
/// it, `If-Modified-Since`) gets 304. A single `Range: bytes=…` gets 206 (or 416), unless
/// `If-Range` names another version. A path never leaves the directory: `..` segments,
/// encoded slashes and NUL are refused, and the real path after resolving symlinks must
/// still be inside the root.
///
/// Files are kept between requests (see ``Options``): a file served again is answered
/// from memory (or from its open descriptor, with `sendfile`, when large), its head made
/// once, without opening or reading it; a changed file is noticed within
/// ``Options/revalidateAfter``. Where `name.br` or `name.gz` sits beside a file, a client
/// that accepts that encoding gets it (`Content-Encoding`, with `Vary: Accept-Encoding`).
/// Versioned files (a content hash in the name, or under ``Options/immutablePrefixes``) are
/// cacheable for a year as `immutable`; the rest `no-cache` (revalidated by `ETag`).
public struct StaticFiles: Sendable {
  /// How files are kept and how long browsers may keep them.
  public struct Options: Sendable {
    /// How long a kept file is served without looking at the disk again (one `stat` of it
    /// and of its compressed variants' names). Default 1 s; zero looks on every request.
    public var revalidateAfter: Duration = .seconds(1)
    /// Files at most this large are kept in memory and written after their head in one
    /// system call; larger ones are kept open and sent with `sendfile`. Default 256 KiB.
    public var maxFileBytesInMemory = 256 * 1024
    /// The memory all kept files may use; past it, files are sent from their descriptors.
    /// Default 64 MiB.
    public var maxMemoryBytes = 64 * 1024 * 1024
    /// Files kept at most (URL paths, each with its variants). Default 512.
    public var maxFiles = 512
    /// URL path prefixes whose files never change under the same name, such as a
    /// bundler's `"/assets/"`: answered with `Cache-Control: public, max-age=31536000,
    /// immutable`, as are files whose names carry a hexadecimal content hash
    /// (`app.3f9a1c2e.js`, `app-3f9a1c2e.js`). Default none.
    public var immutablePrefixes: [String] = []

    /// The defaults listed on each property.
    public init() {}
  }

  /// The directory served, resolved to a real path (`nil` if it does not exist).
  public let root: String?
  private let cache: StaticFileCache

  /// Serves `directory`, keeping files as `options` say.
  public init(root directory: String, options: Options = Options()) {
    root = FileSystem.realPath(directory)
    cache = StaticFileCache(options: options)
  }

  /// Answers `request` from the directory.
  public func respond(to request: Request) throws(HTTPError) -> Response {
    guard request.method == "GET" || request.method == "HEAD" else {
      throw HTTPError(
        status: 405, code: "method_not_allowed", message: "Static files answer only GET and HEAD.",
        headers: ["Allow": "GET, HEAD"])
    }
    guard let root, let file = try cache.file(at: request.path, root: root) else { throw HTTPError.notFound() }
    return try file.answer(request)
  }
}
