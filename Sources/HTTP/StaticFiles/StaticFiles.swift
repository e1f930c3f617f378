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
    guard let root, let file = try open(request.path, root: root) else { throw HTTPError.notFound() }
    defer { close(file.descriptor) }
    return try serve(file, request: request)
  }

  /// A regular file opened for reading, with what `fstat` said about it.
  private struct OpenFile {
    var descriptor: Int32
    var info: stat
    var path: String
  }

  /// Opens the regular file `path` names under `root`, or returns `nil` for a 404. The
  /// checks run on the real path (symlinks resolved), and the answer is built from the
  /// opened descriptor, so a file swapped after the check is never served.
  private func open(_ path: String, root: String) throws(HTTPError) -> OpenFile? {
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
    let candidate = root + (segments.isEmpty ? "" : "/" + segments.joined(separator: "/"))
    guard let file = Self.openInside(candidate, root: root) else { return nil }
    if file.info.st_mode & S_IFMT == S_IFDIR {
      close(file.descriptor)
      guard let index = Self.openInside(file.path + "/index.html", root: root) else { return nil }
      return Self.regular(index)
    }
    return Self.regular(file)
  }

  private func serve(_ file: OpenFile, request: Request) throws(HTTPError) -> Response {
    let size = Int(file.info.st_size)
    let modified = Int(file.info.st_mtim.tv_sec)
    let nanoseconds = Int(file.info.st_mtim.tv_nsec)
    let etag = "\"\(String(size, radix: 16))-\(String(modified, radix: 16))-\(String(nanoseconds, radix: 16))\""
    var headers: HTTPHeaders = [
      "Content-Type": MIMEType.forFile(file.path),
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
      return Response(status: 200, headers: headers, body: .bytes(Self.read(file.descriptor, range: 0..<size)))
    case .satisfiable(let bytes):
      let body = Self.read(file.descriptor, range: bytes.lowerBound..<(bytes.upperBound + 1))
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

  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  private static func isInside(_ path: String, root: String) -> Bool {
    path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
  }

  /// Opens `path` if its real path is inside `root`.
  private static func openInside(_ path: String, root: String) -> OpenFile? {
    guard let real = realPath(path), isInside(real, root: root) else { return nil }
    let descriptor = Glibc.open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return nil }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      close(descriptor)
      return nil
    }
    return OpenFile(descriptor: descriptor, info: info, path: real)
  }

  /// `file` if it is a regular file; otherwise closes it.
  private static func regular(_ file: OpenFile) -> OpenFile? {
    if file.info.st_mode & S_IFMT == S_IFREG { return file }
    close(file.descriptor)
    return nil
  }

  /// The bytes of the open file in `range` (fewer if the file shrank meanwhile).
  private static func read(_ descriptor: Int32, range: Range<Int>) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: range.count)
    var filled = 0
    while filled < range.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + filled, range.count - filled, off_t(range.lowerBound + filled))
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
