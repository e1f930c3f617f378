/// Changes the value inside `optional` in place in a test, and fails the test when it is
/// `nil`, when `body` throws, or when an `Equatable` value is left unchanged (except in the
/// assertions of a non-exhaustive ``TestStore``):
/// `await store.receive(.loaded) { XCTModify(&$0.child) { $0.count = 1 } }`.
public func XCTModify<Wrapped>(
  _ optional: inout Wrapped?,
  _ message: @autoclosure () -> String = "",
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  _ body: (inout Wrapped) throws -> Void
) {
  let prefix = message().isEmpty ? "" : message() + " - "
  guard var wrapped = optional else {
    reportIssue(
      "\(prefix)XCTModify failed: expected non-nil value of type \"\(Wrapped.self)\"",
      fileID: fileID, filePath: filePath, line: line, column: column)
    return
  }
  XCTModifyPayload(&wrapped, prefix: prefix, fileID: fileID, filePath: filePath, line: line, column: column, body)
  optional = wrapped
}

/// Changes the payload of the case `casePath` of `root` in place in a test, and fails the
/// test when `root` is another case, when `body` throws, or when an `Equatable` payload is
/// left unchanged: `XCTModify(&$0.destination, case: \.child) { $0.count = 1 }`.
public func XCTModify<Root, Case>(
  _ root: inout Root,
  case casePath: AnyCasePath<Root, Case>,
  _ message: @autoclosure () -> String = "",
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  _ body: (inout Case) throws -> Void
) {
  let prefix = message().isEmpty ? "" : message() + " - "
  guard var payload = casePath.extract(from: root) else {
    reportIssue(
      "\(prefix)XCTModify failed: expected to extract value of type \"\(Case.self)\" from \"\(Root.self)\"",
      fileID: fileID, filePath: filePath, line: line, column: column)
    return
  }
  XCTModifyPayload(&payload, prefix: prefix, fileID: fileID, filePath: filePath, line: line, column: column, body)
  root = casePath.embed(payload)
}

/// ``XCTModify(_:case:_:fileID:filePath:line:column:_:)`` with a case key path.
public func XCTModify<Root, Case>(
  _ root: inout Root,
  case keyPath: CaseKeyPath<Root, Case>,
  _ message: @autoclosure () -> String = "",
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  _ body: (inout Case) throws -> Void
) {
  XCTModify(
    &root, case: AnyCasePath(keyPath), message(), fileID: fileID, filePath: filePath, line: line, column: column, body)
}

private func XCTModifyPayload<Value>(
  _ value: inout Value, prefix: String,
  fileID: StaticString, filePath: StaticString, line: UInt, column: UInt,
  _ body: (inout Value) throws -> Void
) {
  let before = value
  do {
    try body(&value)
  } catch {
    reportIssue(
      "\(prefix)XCTModify threw error \"\(error)\"", fileID: fileID, filePath: filePath, line: line, column: column)
    return
  }
  if XCTModifyLocals.isExhaustive, let before = before as? any Equatable, before.isEqual(to: value) {
    reportIssue(
      "\(prefix)XCTModify failed: Expected \"\(Value.self)\" value to be modified but it was unchanged.",
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    (other as? Self).map { $0 == self } ?? false
  }
}

/// What `XCTModify` runs under: a non-exhaustive ``TestStore`` lets its state assertions
/// leave a value unchanged.
enum XCTModifyLocals {
  /// Whether an unchanged value fails the test.
  @TaskLocal static var isExhaustive = true
}
