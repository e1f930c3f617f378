import Glibc

/// The file system calls of ``StaticFiles``: from a URL path to an opened file that is
/// certainly inside the root.
enum FileSystem {
  /// A file opened for reading, with what `fstat` said about it.
  struct OpenFile {
    var descriptor: Int32
    var info: stat
    /// The real path (symlinks resolved).
    var path: String

    var isDirectory: Bool { info.st_mode & S_IFMT == S_IFDIR }
    var isRegular: Bool { info.st_mode & S_IFMT == S_IFREG }
  }

  /// The path under `root` that the URL path `path` names, or `nil` when it names no file
  /// there: `..` and `.` segments, and encoded slashes, backslashes or NUL in a segment.
  ///
  /// - Throws: 400 for a malformed percent escape.
  static func candidate(for path: String, root: String) throws(HTTPError) -> String? {
    guard PercentDecoding.decode(path) != nil else {
      throw HTTPError.badRequest("The path contains a malformed percent escape.")
    }
    var segments: [String] = []
    for segment in path.split(separator: "/") {
      guard let part = PercentDecoding.decode(String(segment)) else { return nil }
      if part.contains("/") || part.contains("\\") || part.contains("\0") { return nil }
      if part == ".." || part == "." { return nil }
      segments.append(part)
    }
    return root + (segments.isEmpty ? "" : "/" + segments.joined(separator: "/"))
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Opens `path` if its real path is inside `root`. The answer is built from the opened
  /// descriptor, so a file swapped after the check is never served.
  static func openInside(_ path: String, root: String) -> OpenFile? {
    guard let real = realPath(path), real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
      return nil
    }
    let descriptor = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return nil }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      close(descriptor)
      return nil
    }
    return OpenFile(descriptor: descriptor, info: info, path: real)
  }

  /// The whole of `file` as a body: read into memory (and closed) when `inMemory`, else
  /// kept open for `sendfile`.
  static func body(of file: OpenFile, inMemory: Bool) -> FileBody {
    let size = Int(file.info.st_size)
    let descriptor = OpenDescriptor(file.descriptor)
    guard inMemory else { return FileBody(.descriptor(descriptor), range: 0..<size) }
    let bytes = descriptor.read(0..<size)
    let storage = FrameStorage(capacity: bytes.count) { $0.append(bytes) }
    return FileBody(.memory(storage), range: 0..<bytes.count)
  }
}
