import Glibc

/// One version of a file, as `stat` (following symlinks) tells it: device, inode, size,
/// and modification and change times. Rewriting the file, renaming another over it, or
/// pointing a symlink on its path elsewhere all give another stamp.
struct FileStamp: Equatable, Sendable {
  private let device: UInt64
  private let inode: UInt64
  private let size: Int
  private let modified: timespec
  private let changed: timespec

  /// The stamp of the file at `path` now, or `nil` if it cannot be `stat`ed.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int(info.st_size)
    modified = info.st_mtim
    changed = info.st_ctim
  }

  static func == (lhs: FileStamp, rhs: FileStamp) -> Bool {
    lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
      && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
      && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
  }
}
