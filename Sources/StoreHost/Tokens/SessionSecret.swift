import Foundation

/// The token-signing secret: kept in the data directory, so tokens stay valid across
/// restarts, or read from a file the deployment provides (a Kubernetes or Docker secret).
public enum SessionSecret {
  /// The secret's file name inside the data directory.
  public static let fileName = "session-secret"
  /// The length of a generated secret, in bytes.
  public static let generatedLength = 32

  /// Reads `directory/session-secret`, or when it is absent creates `directory` (mode 0700)
  /// and writes ``generatedLength`` bytes from `RAND_bytes` there with mode 0600.
  ///
  /// The file is written under a temporary name, synced, then hard-linked into place, so a
  /// crash never leaves a partial secret and two processes starting together agree on one.
  public static func loadOrCreate(inDirectory directory: String) throws(SessionSecretError) -> [UInt8] {
    let path = directory + "/" + fileName
    if let secret = try read(path) { return try checked(secret, from: path) }
    guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw .system("mkdir", path: directory, errno: errno) }
    let temporary = path + "." + Base64URL.encode(SecureRandom.bytes(9)) + ".tmp"
    try write(SecureRandom.bytes(generatedLength), toNewFile: temporary)
    defer { unlink(temporary) }
    if link(temporary, path) != 0, errno != EEXIST {
      throw .system("link", path: path, errno: errno)
    }
    try syncDirectory(directory)
    guard let secret = try read(path) else { throw .system("open", path: path, errno: ENOENT) }
    return try checked(secret, from: path)
  }

  /// The secret in the file at `path`, without the line ending a text file ends with
  /// (`\n` or `\r\n`), as a secret mounted by Kubernetes or Docker may.
  public static func read(file path: String) throws(SessionSecretError) -> [UInt8] {
    guard var bytes = try read(path) else { throw .system("open", path: path, errno: ENOENT) }
    if bytes.last == UInt8(ascii: "\n") {
      bytes.removeLast()
      if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    }
    return try checked(bytes, from: path)
  }

  private static func checked(_ bytes: [UInt8], from path: String) throws(SessionSecretError) -> [UInt8] {
    guard bytes.count >= SessionTokenSigner.minimumSecretLength else {
      throw .invalidLength(path: path, length: bytes.count)
    }
    return bytes
  }

  /// The file's bytes (at most 4096), or `nil` when it does not exist.
  private static func read(_ path: String) throws(SessionSecretError) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 {
      if errno == ENOENT { return nil }
      throw .system("open", path: path, errno: errno)
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw .system("read", path: path, errno: errno) }
      if count == 0 { break }
      bytes += buffer[..<count]
      guard bytes.count <= 4096 else { throw .invalidLength(path: path, length: bytes.count) }
    }
    return bytes
  }

  private static func write(_ bytes: [UInt8], toNewFile path: String) throws(SessionSecretError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .system("open", path: path, errno: errno) }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw .system("write", path: path, errno: errno) }
      written += count
    }
    guard fsync(descriptor) == 0 else { throw .system("fsync", path: path, errno: errno) }
  }

  private static func syncDirectory(_ directory: String) throws(SessionSecretError) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system("open", path: directory, errno: errno) }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw .system("fsync", path: directory, errno: errno) }
  }
}

/// Why the session secret could not be read or created.
public enum SessionSecretError: Error, Equatable, CustomStringConvertible {
  /// A system call failed.
  case system(String, path: String, errno: Int32)
  /// The file holds fewer than 32 or more than 4096 bytes.
  case invalidLength(path: String, length: Int)

  public var description: String {
    switch self {
    case .system(let call, let path, let code):
      "\(call) \(path) failed: \(String(cString: strerror(code)))"
    case .invalidLength(let path, let length):
      "\(path) holds \(length) bytes; a session secret has 32 to 4096"
    }
  }
}
