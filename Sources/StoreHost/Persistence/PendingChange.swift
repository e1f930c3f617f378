/// The latest not-yet-written change to one session; a newer change replaces an older one.
enum PendingChange: Sendable {
  case save(SessionSave)
  case delete

  /// The change to keep when `newer` arrives while `self` is still pending: a save of an older
  /// version never replaces a save of a newer one.
  func merged(with newer: PendingChange) -> PendingChange {
    if case .save(let kept) = self, case .save(let incoming) = newer, incoming.version < kept.version {
      return self
    }
    return newer
  }

  /// The row change to write, the state encoded now.
  func write() throws -> SessionWrite {
    switch self {
    case .save(let save): .save(try save.snapshot())
    case .delete: .delete
    }
  }
}

/// A change as the table writes it.
enum SessionWrite {
  case save(SessionSnapshot)
  case delete
}
