import Testing

@testable import HTTP

@Suite struct RequestTests {
  private func isJSON(_ contentType: String?) -> Bool {
    let headers: HTTPHeaders = contentType.map { ["Content-Type": $0] } ?? [:]
    return Request(method: "POST", path: "/", headers: headers).hasJSONContentType
  }

  @Test func jsonContentTypeIgnoresCaseParametersAndSpaces() {
    #expect(isJSON("application/json"))
    #expect(isJSON("Application/JSON; charset=utf-8"))
    #expect(isJSON("  application/json ;charset=utf-8"))
  }

  @Test func otherContentTypesAreNotJSON() {
    #expect(!isJSON(nil))
    #expect(!isJSON(""))
    #expect(!isJSON("text/plain"))
    #expect(!isJSON("application/json-seq"))
    #expect(!isJSON("application/jso"))
    #expect(!isJSON("application/x-www-form-urlencoded; application/json"))
  }
}
