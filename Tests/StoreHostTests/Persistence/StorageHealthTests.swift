import Testing

@testable import StoreHost

private struct DiskFull: Error {}

@Suite struct StorageHealthTests {
  @Test func waitingForFailureReturnsWhenAWriteFails() async {
    let health = StorageHealth()
    let waiter = Task {
      await health.waitUntilFailing()
      return health.isFailing
    }
    // The waiter may register before or after the failure: it returns either way.
    await Task.yield()
    health.recordSuccess()
    health.recordFailure(DiskFull())
    #expect(await waiter.value)
  }

  @Test func waitingForFailureReturnsAtOnceWhileWritesFail() async {
    let health = StorageHealth()
    health.recordFailure(DiskFull())
    await health.waitUntilFailing()
    #expect(health.isFailing)
  }

  @Test func waitingForFailureEndsWhenTheTaskIsCancelled() async {
    let health = StorageHealth()
    let waiter = Task {
      await health.waitUntilFailing()
      return health.isFailing
    }
    waiter.cancel()
    #expect(await waiter.value == false)
  }

  @Test func aWaitAfterRecoveryWaitsForTheNextFailure() async {
    let health = StorageHealth()
    health.recordFailure(DiskFull())
    health.recordSuccess()
    let waiter = Task {
      await health.waitUntilFailing()
      return health.failureEpisodes
    }
    health.recordFailure(DiskFull())
    #expect(await waiter.value == 2)
  }
}
