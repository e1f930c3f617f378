import Glibc

/// Serves the files under one directory; meant as ``Router/fallback``.
///
/// GET and HEAD only. `/` and directories serve their `index.html`; there are no
/// directory listings. Answers carry a content type from the extension, an `ETag` (size
/// and modification time) and `Last-Modified`; a matching `If-None-Match` (or, without
/// it, `If-Modified-Since`) gets 304. A single `Range: bytes=…` gets 206 (or 416), unless
/// `If-Range` names another version. A path never leaves the directory: `..` segments,
/// encoded slashes and NUL are refused, and the real path after resolving symlinks must
/// still be inside the root.
public struct StaticFiles: Sendable {
  /// The directory served, resolved to a real path (`nil` if it does not exist).
  public let root: String?

  /// Serves `directory`.
  public init(root directory: String) {
    root = Self.realPath(directory)
  }

  /// The handler to install as ``Router/fallback``.
  public var handler: Handler { { request in try self.respond(to: request) } }

  /// Answers `request` from the directory.
  public func respond(to request: Request) throws(HTTPError) -> Response {
    guard request.method == "GET" || request.method == "HEAD" else {
      throw HTTPError(
        status: 405, code: "method_not_allowed", message: "Static files answer only GET and HEAD.",
        headers: ["Allow": "GET, HEAD"])
    }
    guard let root, let file = try resolve(request.path, root: root) else { throw HTTPError.notFound() }
    return try serve(file, request: request)
  }

  /// The real path of the file for `path`, or `nil` for a 404.
  func resolve(_ path: String, root: String) throws(HTTPError) -> String? {
    guard PercentDecoding.decode(path) != nil else {
      throw HTTPError.badRequest("The path contains a malformed percent escape.")
    }
    var segments: [Substring] = []
    for segment in path.split(separator: "/") {
      guard let part = PercentDecoding.decode(String(segment)) else { return nil }
      // An encoded slash, backslash or NUL inside one segment never names a file here.
      if part.contains("/") || part.contains("\\") || part.contains("\0") { return nil }
      if part == ".." || part == "." { return nil }
      segments.append(Substring(part))
    }
    var candidate = root + (segments.isEmpty ? "" : "/" + segments.joined(separator: "/"))
    guard var real = Self.realPath(candidate), Self.isInside(real, root: root) else { return nil }
    if Self.isDirectory(real) {
      candidate = real + "/index.html"
      guard let index = Self.realPath(candidate), Self.isInside(index, root: root) else { return nil }
      real = index
    }
    return Self.isRegularFile(real) ? real : nil
  }

  private func serve(_ file: String, request: Request) throws(HTTPError) -> Response {
    var info = stat()
    guard stat(file, &info) == 0 else { throw HTTPError.notFound() }
    let size = Int(info.st_size)
    let modified = Int(info.st_mtim.tv_sec)
    let etag =
      "\"\(String(size, radix: 16))-\(String(modified, radix: 16))-\(String(Int(info.st_mtim.tv_nsec), radix: 16))\""
    var headers: HTTPHeaders = [
      "Content-Type": MIMEType.forFile(file),
      "ETag": etag,
      "Last-Modified": HTTPDate.format(modified),
      "Cache-Control": "no-cache",
    ]
    if Self.notModified(request.headers, etag: etag, modified: modified) {
      headers.remove("Content-Type")
      return Response(status: 304, headers: headers)
    }
    headers.set("Accept-Ranges", "bytes")
    let ifRange = request.headers["If-Range"]
    let range = ifRange == nil || ifRange == etag ? ByteRange(header: request.headers["Range"], size: size) : .whole
    switch range {
    case .whole:
      guard let body = Self.readFile(file, range: 0..<size) else { throw HTTPError.notFound() }
      return Response(status: 200, headers: headers, body: .bytes(body))
    case .satisfiable(let bytes):
      guard let body = Self.readFile(file, range: bytes.lowerBound..<(bytes.upperBound + 1)) else {
        throw HTTPError.notFound()
      }
      headers.set("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)")
      return Response(status: 206, headers: headers, body: .bytes(body))
    case .unsatisfiable:
      throw HTTPError(
        status: 416, code: "range_not_satisfiable", message: "The requested range is outside the file.",
        headers: ["Content-Range": "bytes */\(size)"])
    }
  }

  private static func notModified(_ headers: HTTPHeaders, etag: String, modified: Int) -> Bool {
    if let match = headers["If-None-Match"] {
      return match.split(separator: ",").contains { candidate in
        let tag = candidate.trimmingCharacters(in: " \t")
        return tag == "*" || tag == etag || tag == "W/" + etag
      }
    }
    if let since = headers["If-Modified-Since"].flatMap(HTTPDate.parse) { return modified <= since }
    return false
  }

  // MARK: File system

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  private static func isInside(_ path: String, root: String) -> Bool {
    path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
  }

  private static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  private static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  /// The bytes of `path` in `range` (fewer if the file shrank meanwhile).
  private static func readFile(_ path: String, range: Range<Int>) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: range.count)
    var filled = 0
    while filled < range.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress! + filled, range.count - filled, off_t(range.lowerBound + filled))
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      filled += count
    }
    return filled == range.count ? bytes : Array(bytes[0..<filled])
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> Substring {
    var text = self
    while let first = text.first, set.contains(first) { text = text.dropFirst() }
    while let last = text.last, set.contains(last) { text = text.dropLast() }
    return text
  }
}
