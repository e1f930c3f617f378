extension Result: CasePathable {
  /// `\.success` and `\.failure`: `await store.receive(\.factResponse.success)`.
  public struct AllCasePaths: Sendable {
    public var success: AnyCasePath<Result, Success> {
      AnyCasePath(embed: { .success($0) }, extract: { if case let .success(value) = $0 { value } else { nil } })
    }

    public var failure: AnyCasePath<Result, Failure> {
      AnyCasePath(embed: { .failure($0) }, extract: { if case let .failure(error) = $0 { error } else { nil } })
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}
