import Glibc

/// One file as ``StaticFiles`` keeps it: each representation (the file, and its `.br` and
/// `.gz` variants when present) with its body and header fields, made once when read.
final class CachedFile: Sendable {
  /// One encoding of the file.
  struct Representation: Sendable {
    let coding: ContentCoding
    let body: FileBody
    let etag: String
    /// The fields of a 200 answer.
    let headers: HTTPHeaders
    /// The fields of a 304 answer.
    let notModifiedHeaders: HTTPHeaders
  }

  /// The file first, then its variants, best first.
  private let representations: [Representation]
  private let modified: Int
  /// The names checked to see whether the file changed, and what they were when it was read.
  private let watched: [(path: String, stamp: FileStamp?)]
  /// The bytes the representations hold in memory.
  let memoryBytes: Int

  private init(representations: [Representation], modified: Int, watched: [(String, FileStamp?)]) {
    self.representations = representations
    self.modified = modified
    self.watched = watched
    memoryBytes = representations.reduce(0) { total, representation in
      if case .memory = representation.body.source { return total + representation.body.count }
      return total
    }
  }

  /// Whether the file and its variants' names still stand for what was read.
  var isCurrent: Bool { watched.allSatisfy { FileStamp(path: $0.path) == $0.stamp } }

  /// The answer to `request`, a GET or HEAD of this file: 200, 206, 304 or 416.
  func answer(_ request: Request) throws(HTTPError) -> Response {
    let representation = representations.count == 1 ? representations[0] : preferred(request.headers)
    if notModified(request.headers, etag: representation.etag) {
      return Response(status: 304, headers: representation.notModifiedHeaders)
    }
    let size = representation.body.count
    let rangeHeader = request.headers["Range"]
    guard let rangeHeader else { return Response(status: 200, headers: representation.headers, body: .file(representation.body)) }
    let ifRange = request.headers["If-Range"]
    let range = ifRange == nil || ifRange == representation.etag ? ByteRange(header: rangeHeader, size: size) : .whole
    switch range {
    case .whole:
      return Response(status: 200, headers: representation.headers, body: .file(representation.body))
    case .satisfiable(let bytes):
      var headers = representation.headers
      headers.set("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)")
      return Response(
        status: 206, headers: headers, body: .file(representation.body.slice(bytes.lowerBound..<(bytes.upperBound + 1))))
    case .unsatisfiable:
      throw HTTPError(
        status: 416, code: "range_not_satisfiable", message: "The requested range is outside the file.",
        headers: ["Content-Range": "bytes */\(size)"])
    }
  }

  /// The best representation the request's `Accept-Encoding` allows.
  private func preferred(_ headers: HTTPHeaders) -> Representation {
    let accepted = ContentCoding.accepted(by: headers["Accept-Encoding"])
    return representations.dropFirst().first { accepted.contains($0.coding) } ?? representations[0]
  }

  private func notModified(_ headers: HTTPHeaders, etag: String) -> Bool {
    if let matches = headers.ifNoneMatch(matches: etag) { return matches }
    if let since = headers["If-Modified-Since"].flatMap(HTTPDate.parse) { return modified <= since }
    return false
  }

  // MARK: Reading

  /// Reads the file the URL path `path` names under `root`, and its variants; `nil` for a
  /// 404. Files of at most `inMemoryUpTo` bytes are read into memory; larger ones kept open.
  ///
  /// - Throws: 400 for a malformed percent escape.
  static func load(
    _ path: String, root: String, options: StaticFiles.Options, inMemoryUpTo memoryLimit: Int
  ) throws(HTTPError) -> CachedFile? {
    guard let candidate = try FileSystem.candidate(for: path, root: root) else { return nil }
    // The stamps come first: a file that changes after them is read again at the next check.
    var name = candidate
    var watched = [(path: name, stamp: FileStamp(path: name))]
    guard var file = FileSystem.openInside(name, root: root) else { return nil }
    if file.isDirectory {
      close(file.descriptor)
      name += "/index.html"
      watched = [(name, FileStamp(path: name))]
      guard let index = FileSystem.openInside(name, root: root) else { return nil }
      file = index
    }
    guard file.isRegular else {
      close(file.descriptor)
      return nil
    }
    let variants = ContentCoding.precompressed.compactMap { coding -> (ContentCoding, FileSystem.OpenFile)? in
      let variantName = name + coding.fileSuffix
      watched.append((variantName, FileStamp(path: variantName)))
      guard let variant = FileSystem.openInside(variantName, root: root) else { return nil }
      guard variant.isRegular else {
        close(variant.descriptor)
        return nil
      }
      return (coding, variant)
    }
    let contentType = MIMEType.forFile(file.path)
    let cacheControl =
      options.immutablePrefixes.contains(where: path.hasPrefix) || VersionedName.isVersioned(file.path)
      ? "public, max-age=31536000, immutable" : "no-cache"
    let modified = Int(file.info.st_mtim.tv_sec)
    var memoryLeft = memoryLimit
    let representations = [(ContentCoding.identity, file)] + variants
    return CachedFile(
      representations: representations.map { coding, open in
        let tag = etag(open.info, coding: coding)
        var headers: HTTPHeaders = [
          "Content-Type": contentType,
          "ETag": tag,
          "Last-Modified": HTTPDate.format(modified),
          "Cache-Control": cacheControl,
        ]
        if !variants.isEmpty { headers.add("Vary", "Accept-Encoding") }
        if coding != .identity { headers.add("Content-Encoding", coding.rawValue) }
        var notModified = headers
        notModified.remove("Content-Type")
        headers.add("Accept-Ranges", "bytes")
        let body = FileSystem.body(of: open, inMemory: Int(open.info.st_size) <= memoryLeft)
        if case .memory = body.source { memoryLeft -= body.count }
        return Representation(
          coding: coding, body: body, etag: tag, headers: headers,
          notModifiedHeaders: notModified)
      },
      modified: modified, watched: watched)
  }

  /// `"size-seconds-nanoseconds"` of the modification time, in hexadecimal, with the
  /// encoding for a variant.
  private static func etag(_ info: stat, coding: ContentCoding) -> String {
    let parts = [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)].map { String($0, radix: 16) }
    let suffix = coding == .identity ? "" : "-" + coding.rawValue
    return "\"" + parts.joined(separator: "-") + suffix + "\""
  }
}
