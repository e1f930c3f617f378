// swift-concurrency-extras' helpers as TCA's examples and tests use them.
import ComposableArchitecture
import ConcurrencyExtras
import Testing

struct ConcurrencyExtrasSnippetTests {
  @Test func lockIsolatedRecordsWhatEndpointsSee() async {
    let queries = LockIsolated<[String]>([])
    await withTaskGroup(of: Void.self) { group in
      for query in ["a", "b", "c"] {
        group.addTask { queries.withValue { $0.append(query) } }
      }
    }
    #expect(queries.value.sorted() == ["a", "b", "c"])
    #expect(queries.count == 3)
  }

  @Test func actorIsolatedChangesInAsyncCode() async {
    let count = ActorIsolated(0)
    await count.withValue { $0 += 2 }
    #expect(await count.value == 2)
  }

  @Test func anyHashableSendableComparesTheWrappedValues() {
    #expect(AnyHashableSendable(1) == AnyHashableSendable(1))
    #expect(AnyHashableSendable(1) != AnyHashableSendable("1"))
    #expect(Set([AnyHashableSendable(1), AnyHashableSendable(1)]).count == 1)
  }

  @Test func finishedStreamsEndAtOnce() async throws {
    var elements = 0
    for await _ in AsyncStream<Int>.finished { elements += 1 }
    for try await _ in AsyncThrowingStream<Int, any Error>.finished() { elements += 1 }
    #expect(elements == 0)
    let stream = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.yield(2)
      continuation.finish()
    }
    var collected: [Int] = []
    for await element in stream.eraseToStream() { collected.append(element) }
    #expect(collected == [1, 2])
  }

  @Test func uncheckedSendableCarriesAValue() {
    let wrapped = UncheckedSendable([1, 2])
    #expect(wrapped.value == [1, 2])
    #expect(wrapped.count == 2)
  }
}

