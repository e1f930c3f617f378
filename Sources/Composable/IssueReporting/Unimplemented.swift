/// What an unimplemented endpoint throws once it has reported its use.
public struct UnimplementedFailure: Error, CustomStringConvertible {
  /// The endpoint's description, as given to `unimplemented`.
  public let description: String
}

/// An endpoint that reports an issue whenever it is called, then returns `placeholder`:
/// `var count: @Sendable () -> Int = unimplemented("Client.count", placeholder: 0)`.
public func unimplemented<each Argument, Result>(
  _ description: String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(description, fileID: fileID, filePath: filePath, line: line, column: column)
    return placeholder()
  }
}

/// A throwing endpoint that reports an issue whenever it is called, then throws
/// ``UnimplementedFailure``: `var fetch: @Sendable (Int) throws -> String = unimplemented("fetch")`.
public func unimplemented<each Argument, Result>(
  _ description: String = "",
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) throws -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(description, fileID: fileID, filePath: filePath, line: line, column: column)
    throw UnimplementedFailure(description: description)
  }
}

/// An async endpoint that reports an issue whenever it is called, then returns `placeholder`.
public func unimplemented<each Argument, Result>(
  _ description: String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) async -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(description, fileID: fileID, filePath: filePath, line: line, column: column)
    return placeholder()
  }
}

/// An async throwing endpoint that reports an issue whenever it is called, then throws
/// ``UnimplementedFailure``:
/// `static let testValue = NumberFactClient(fetch: unimplemented("NumberFactClient.fetch"))`.
public func unimplemented<each Argument, Result>(
  _ description: String = "",
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(description, fileID: fileID, filePath: filePath, line: line, column: column)
    throw UnimplementedFailure(description: description)
  }
}

private func reportUnimplemented(
  _ description: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
  let name = description.isEmpty ? "An endpoint" : "\"\(description)\""
  reportIssue("Unimplemented: \(name) was called.", fileID: fileID, filePath: filePath, line: line, column: column)
}
