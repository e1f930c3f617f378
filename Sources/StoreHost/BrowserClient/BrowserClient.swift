import HTTP

/// The browser client StoreHost serves, built into the binary: `storehost.js` (keeps a tab's
/// state live and sends its actions), `storehost.d.ts`, `json-patch.js` (RFC 6902, which the
/// client applies), `json-patch.d.ts`, and the two modules that share one event stream among
/// a browser's tabs, `stream-hub.js` and `stream-worker.js`.
///
/// ``SessionHost/addRoutes(to:)`` serves them at ``path`` (`/storehost/v1/storehost.js`, ...),
/// so a page loads the client of the server it talks to. The `v1` is the wire protocol the
/// client speaks. Answers carry a strong `ETag` (a hash of the file) and `Cache-Control:
/// no-cache`: browsers keep the files and ask each time whether they changed, which costs a
/// 304 until the server is upgraded, and never run a client older than the server's.
public enum BrowserClient {
  /// Where the files are served: `/storehost/v1/` followed by a file's name.
  public static let path = "/storehost/v1/"

  /// The names of the files served.
  public static var fileNames: [String] { files.map(\.name) }

  /// One file's bytes and headers, made once.
  private struct File: Sendable {
    let name: String
    let bytes: [UInt8]
    let etag: String
    let contentType: String
  }

  private static let files: [File] = embeddedFiles.map { name, contents in
    let bytes = Array(UnsafeRawBufferPointer(start: contents.utf8Start, count: contents.utf8CodeUnitCount))
    let contentType = name.hasSuffix(".ts") ? "application/typescript; charset=utf-8" : "text/javascript; charset=utf-8"
    return File(name: name, bytes: bytes, etag: "\"\(fnv1a(bytes))\"", contentType: contentType)
  }

  /// Answers `GET` or `HEAD` of `/storehost/v1/{file}`: 200 with the file, 304 when the
  /// request's `If-None-Match` names it as it is, 404 for any other name.
  static func respond(to request: Request) throws(HTTPError) -> Response {
    guard let name = request.parameters["file"], let file = files.first(where: { $0.name == name }) else {
      throw .notFound("The browser client has no file of this name; it has \(fileNames.joined(separator: ", ")).")
    }
    var headers: HTTPHeaders = ["ETag": file.etag, "Cache-Control": "no-cache"]
    if request.headers.ifNoneMatch(matches: file.etag) == true { return Response(status: 304, headers: headers) }
    headers.set("Content-Type", file.contentType)
    return Response(status: 200, headers: headers, body: .bytes(file.bytes))
  }

  /// The 64-bit FNV-1a hash of `bytes`, in hex: a validator that changes with the content.
  private static func fnv1a(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}
