/// The latest not-yet-written change to one session; a newer change replaces an older one.
enum PendingChange: Sendable {
  case save(SessionSave)
  case reserve(SessionReservation)
  case delete

  /// The change to keep when `newer` arrives while `self` is still pending: a save or
  /// reservation of an older version never replaces one of a newer version.
  func merged(with newer: PendingChange) -> PendingChange {
    if let kept = version, let incoming = newer.version, incoming < kept { return self }
    return newer
  }

  /// Whether this change is a save.
  var isSave: Bool {
    if case .save = self { true } else { false }
  }

  /// The version a save or reservation writes.
  private var version: Int? {
    switch self {
    case .save(let save): save.version
    case .reserve(let reservation): reservation.version
    case .delete: nil
    }
  }

  /// The row change to write, the state encoded now.
  func write() throws -> SessionWrite {
    switch self {
    case .save(let save): .save(try save.snapshot(), history: save.newHistory?())
    case .reserve(let reservation): .reserve(reservation)
    case .delete: .delete
    }
  }
}

/// A change as the table writes it.
enum SessionWrite {
  case save(SessionSnapshot, history: HistoryWrite?)
  case reserve(SessionReservation)
  case delete
}
