/// Content types by file extension.
enum MIMEType {
  private static let byExtension: [String: String] = [
    "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
    "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
    "mjs": "text/javascript; charset=utf-8", "json": "application/json; charset=utf-8",
    "map": "application/json; charset=utf-8", "txt": "text/plain; charset=utf-8",
    "md": "text/markdown; charset=utf-8", "xml": "application/xml", "svg": "image/svg+xml",
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
    "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon", "wasm": "application/wasm",
    "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
    "pdf": "application/pdf", "webmanifest": "application/manifest+json",
  ]

  /// The content type for `fileName`, `application/octet-stream` when unknown.
  static func forFile(_ fileName: String) -> String {
    guard let dot = fileName.lastIndex(of: ".") else { return "application/octet-stream" }
    return byExtension[fileName[fileName.index(after: dot)...].lowercased()] ?? "application/octet-stream"
  }
}
