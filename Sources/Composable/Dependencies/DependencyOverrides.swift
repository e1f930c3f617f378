/// The overridden dependency values of a ``DependencyValues``, by key: an array kept in the
/// keys' order and searched by halving. A store keeps a handful of overrides for as long as
/// it lives, one store per session, so the array is made exactly as long as it needs to be:
/// a third the size of a dictionary of the same overrides, and as quick to search.
struct DependencyOverrides: Sendable {
  private var entries: [(key: ObjectIdentifier, value: any Sendable)] = []

  /// The override for `key`, or `nil`; setting `nil` removes it.
  subscript(key: ObjectIdentifier) -> (any Sendable)? {
    get {
      let index = position(of: key)
      return index < entries.count && entries[index].key == key ? entries[index].value : nil
    }
    set {
      let index = position(of: key)
      let isPresent = index < entries.count && entries[index].key == key
      switch (isPresent, newValue) {
      case (true, let value?):
        entries[index].value = value
      case (true, nil):
        entries.remove(at: index)
      case (false, let value?):
        // A new array of the exact length, rather than one grown by doubling.
        var grown: [(key: ObjectIdentifier, value: any Sendable)] = []
        grown.reserveCapacity(entries.count + 1)
        grown += entries[..<index]
        grown.append((key, value))
        grown += entries[index...]
        entries = grown
      case (false, nil):
        break
      }
    }
  }

  /// The index of the first entry whose key is not below `key`.
  private func position(of key: ObjectIdentifier) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].key < key { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
