import StoreHost
import Testing

@testable import StoreHostPostgres

/// The payload a process announces when it changed a shared value.
@Suite struct SharedValueNotificationTests {
  @Test func keysWithSpacesAndValuesWithNewlinesRoundTrip() throws {
    let change = SharedValueNotification(processID: "12-abc", version: 4, key: "the counter", value: "{\n\"n\": 1}")
    #expect(SharedValueNotification(payload: change.payload) == change)
  }

  @Test func largeValuesAreLeftForTheListenerToRead() throws {
    let change = SharedValueNotification(processID: "1", version: 2, key: "k", value: String(repeating: "x", count: 8000))
    let read = try #require(SharedValueNotification(payload: change.payload))
    #expect(read.value == nil)
    #expect(read.version == 2)
  }

  @Test func foreignPayloadsAreIgnored() {
    #expect(SharedValueNotification(payload: "") == nil)
    #expect(SharedValueNotification(payload: "a b c") == nil)
  }
}
