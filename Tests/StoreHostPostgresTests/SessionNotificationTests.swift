import StoreHost
import Testing

@testable import StoreHostPostgres

/// The payload an owner announces after each durable save.
@Suite struct SessionNotificationTests {
  private let id = SessionID("BjJLWFhyMjcIt0JY9l0Yow")!

  @Test func smallStateTravelsInThePayload() throws {
    let payload = SessionNotification.payload(id: id, version: 7, state: #"{"count": 1}"#)
    let notification = try #require(SessionNotification(payload: payload))
    #expect(notification == SessionNotification(id: id, version: 7, state: #"{"count": 1}"#))
  }

  @Test func largeStateIsLeftForTheListenerToRead() throws {
    let state = "[" + String(repeating: "1,", count: 5000) + "1]"
    let payload = SessionNotification.payload(id: id, version: 3, state: state)
    #expect(payload.utf8.count <= SessionNotification.maxPayloadBytes)
    let notification = try #require(SessionNotification(payload: payload))
    #expect(notification.version == 3)
    #expect(notification.state == nil)
  }

  @Test func deletionIsVersionMinusOne() throws {
    let notification = try #require(SessionNotification(payload: "\(id) -1"))
    #expect(notification.version == SessionNotification.deletedVersion)
  }

  @Test func foreignPayloadsAreIgnored() {
    #expect(SessionNotification(payload: "") == nil)
    #expect(SessionNotification(payload: "not/an-id 3") == nil)
    #expect(SessionNotification(payload: "\(id) three") == nil)
  }

  @Test func leaseDurationsBecomeMillisecondIntervals() {
    #expect(Duration.seconds(4).postgresInterval == "4000 milliseconds")
    #expect(Duration.milliseconds(1500).postgresInterval == "1500 milliseconds")
  }
}
