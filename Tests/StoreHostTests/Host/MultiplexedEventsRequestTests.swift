import HTTP
import Testing

@testable import StoreHost

@Suite struct MultiplexedEventsRequestTests {
  private func parse(_ query: String) throws(HTTPError) -> MultiplexedEventsRequest {
    try MultiplexedEventsRequest(Request(method: "GET", path: "/api/events", query: query))
  }

  @Test func readsEachWatchWithItsVersionAndTheOptions() throws {
    let request = try parse("watch=AAA.7&watch=BBB&patch=1&presence=1")
    #expect(request.watches == [.init(ticket: "AAA", lastEventID: 7), .init(ticket: "BBB", lastEventID: nil)])
    #expect(request.patches && request.presence && !request.log)
  }

  @Test func refusesNoSessionsTooManyAndMalformedOnes() {
    let tooMany = Array(repeating: "watch=A", count: MultiplexedEventsRequest.maxSessions + 1).joined(separator: "&")
    for query in ["", "patch=1", "watch=", "watch=A.", "watch=A.x", "watch=A.-2", "watch=.3", tooMany] {
      #expect(throws: HTTPError.self, "\(query.prefix(30))") { try parse(query) }
      do {
        _ = try parse(query)
      } catch {
        #expect(error.status == 400 && error.code == "invalid_watch")
      }
    }
  }

  @Test func takesAsManySessionsAsAStreamMay() throws {
    let most = Array(repeating: "watch=A.1", count: MultiplexedEventsRequest.maxSessions).joined(separator: "&")
    #expect(try parse(most).watches.count == MultiplexedEventsRequest.maxSessions)
  }
}
