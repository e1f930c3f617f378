import Testing

@testable import StoreHost

@Suite struct TokenBucketTests {
  private let start = ContinuousClock.now

  @Test func allowsTheBurstThenLimits() {
    var bucket = TokenBucket(ratePerSecond: 10, burst: 3, now: start)
    #expect(bucket.take(at: start) == .allowed)
    #expect(bucket.take(2, at: start) == .allowed)
    #expect(bucket.take(at: start) == .limited(retryAfter: .milliseconds(100)))
  }

  @Test func refillsAtTheRateUpToTheBurst() {
    var bucket = TokenBucket(ratePerSecond: 10, burst: 5, now: start)
    #expect(bucket.take(5, at: start) == .allowed)
    #expect(bucket.available(at: start + .milliseconds(250)) == 2.5)
    #expect(bucket.take(2, at: start + .milliseconds(250)) == .allowed)
    #expect(bucket.take(1, at: start + .milliseconds(250)) == .limited(retryAfter: .milliseconds(50)))
    #expect(bucket.available(at: start + .seconds(60)) == 5)
  }

  @Test func aLimitedRequestTakesNothing() {
    var bucket = TokenBucket(ratePerSecond: 1, burst: 4, now: start)
    #expect(bucket.take(3, at: start) == .allowed)
    #expect(bucket.take(2, at: start) == .limited(retryAfter: .seconds(1)))
    #expect(bucket.take(1, at: start) == .allowed)
  }

  @Test func aRequestLargerThanTheBurstNeverPasses() {
    var bucket = TokenBucket(ratePerSecond: 100, burst: 4, now: start)
    #expect(bucket.take(5, at: start + .seconds(10)) == .limited(retryAfter: nil))
  }

  @Test func aClockGoingBackAddsNothing() {
    var bucket = TokenBucket(ratePerSecond: 10, burst: 2, now: start + .seconds(1))
    #expect(bucket.take(2, at: start + .seconds(1)) == .allowed)
    #expect(bucket.take(at: start) == .limited(retryAfter: .milliseconds(100)))
    #expect(bucket.available(at: start + .seconds(1)) == 0)
  }

  @Test func usesTheSessionLimits() {
    var bucket = TokenBucket(limits: SessionLimits(), now: start)
    #expect(bucket.ratePerSecond == 20)
    #expect(bucket.take(40, at: start) == .allowed)
    #expect(bucket.take(at: start) == .limited(retryAfter: .milliseconds(50)))
  }
}
