import Testing

@testable import StoreHost

@Suite struct BearerTokenTests {
  @Test(arguments: [
    ("Bearer abc.def", "abc.def"), ("bearer abc", "abc"), ("BEARER abc", "abc"), ("bEaReR a b", "a b"),
  ])
  func theTokenFollowsTheSchemeInAnyCase(header: String, token: String) {
    #expect(Authentication.bearerToken(in: header) == token)
  }

  @Test(arguments: ["Basic abc", "Bearer", "Bearer ", "Bearerx abc", "Bear abc", "Bearer\tabc", "", " Bearer abc"])
  func anotherSchemeOrNoTokenGivesNone(header: String) {
    #expect(Authentication.bearerToken(in: header) == nil)
  }
}
