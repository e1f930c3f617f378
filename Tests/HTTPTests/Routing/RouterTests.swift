import Foundation
import Testing

@testable import HTTP

private func text(_ response: Response) -> String { String(decoding: response.bodyBytes, as: UTF8.self) }

private struct ErrorBody: Decodable {
  struct Detail: Decodable {
    var code: String
    var message: String
  }
  var error: Detail
}

private func errorCode(_ response: Response) -> String? {
  try? JSONDecoder().decode(ErrorBody.self, from: Data(response.bodyBytes)).error.code
}

@Suite struct RouterTests {
  var router: Router {
    var router = Router()
    router.get("/api/sessions/{id}/events") { .text("events of \($0.parameters["id"] ?? "?")") }
    router.post("/api/sessions/{id}/actions") { .text("actions of \($0.parameters["id"] ?? "?")") }
    router.delete("/api/sessions/{id}/events") { _ in Response(status: 204) }
    router.get("/boom") { _ in throw CancellationError() }
    router.get("/teapot") { _ in throw HTTPError(status: 418, code: "teapot", message: "I am a teapot.") }
    return router
  }

  @Test func capturesPercentDecodedPathParameters() async {
    let response = await router.respond(to: Request(method: "GET", path: "/api/sessions/a%20b/events"))
    #expect(text(response) == "events of a b")
  }

  @Test func headUsesTheGetRoute() async {
    let response = await router.respond(to: Request(method: "HEAD", path: "/api/sessions/1/events"))
    #expect(response.status == 200)
  }

  @Test func unknownPathIs404Json() async {
    let response = await router.respond(to: Request(method: "GET", path: "/nowhere"))
    #expect(response.status == 404)
    #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
    #expect(errorCode(response) == "not_found")
  }

  @Test func wrongMethodIs405WithAllow() async {
    let response = await router.respond(to: Request(method: "PUT", path: "/api/sessions/1/events"))
    #expect(response.status == 405)
    #expect(response.headers["Allow"] == "GET, HEAD, DELETE, OPTIONS")
    #expect(errorCode(response) == "method_not_allowed")
  }

  @Test func optionsListsAllowedMethods() async {
    let response = await router.respond(to: Request(method: "OPTIONS", path: "/api/sessions/1/actions"))
    #expect(response.status == 204)
    #expect(response.headers["Allow"] == "POST, OPTIONS")
  }

  @Test func optionsStarListsServerMethods() async {
    let response = await router.respond(to: Request(method: "OPTIONS", path: "*"))
    #expect(response.status == 204)
    #expect(response.headers["Allow"]?.contains("GET") == true)
  }

  @Test func thrownErrorsBecomeJson() async {
    let internalError = await router.respond(to: Request(method: "GET", path: "/boom"))
    #expect(internalError.status == 500)
    #expect(errorCode(internalError) == "internal_error")
    let custom = await router.respond(to: Request(method: "GET", path: "/teapot"))
    #expect(custom.status == 418)
    #expect(errorCode(custom) == "teapot")
  }

  @Test func fallbackTakesUnroutedPaths() async {
    var router = self.router
    router.fallback = { _ in .text("fallback") }
    #expect(text(await router.respond(to: Request(method: "GET", path: "/x/y"))) == "fallback")
  }

  @Test func aHandlerThatNeverAwaitsIsCalledWithoutATask() {
    var router = Router()
    router.get("/now") { _ in .text("now") }
    router.get("/later") { _ in
      await Task.yield()
      return .text("later")
    }
    router.get("/pooled", runsOn: .sharedPool) { _ in .text("pooled") }
    guard case .immediate(let handler, _) = router.resolve(method: "GET", path: "/now") else {
      Issue.record("an immediate handler was given a task")
      return
    }
    #expect(text(Router.run(handler, Request(method: "GET", path: "/now"))) == "now")
    guard case .handler = router.resolve(method: "GET", path: "/later") else {
      Issue.record("an async handler was not given a task")
      return
    }
    guard case .handler(_, _, .sharedPool) = router.resolve(method: "GET", path: "/pooled") else {
      Issue.record("a pooled handler was not sent to the pool")
      return
    }
  }

  @Test func anEagerHandlerAnswersAtOnceOrLeavesTheRestToATask() async {
    var router = Router()
    router.post("/items/{id}") { request throws -> EagerResponse in
      switch request.parameters["id"] {
      case "now": return .now(.text("now"))
      case "refused": throw HTTPError(status: 409, code: "conflict", message: "Not now.")
      default:
        return .later {
          await Task.yield()
          if request.parameters["id"] == "failing" { throw HTTPError(status: 503, code: "later", message: "Later.") }
          return .text("later")
        }
      }
    }
    router.post("/pooled", runsOn: .sharedPool) { _ throws -> EagerResponse in .now(.text("pooled")) }
    guard case .eager(let handler, let parameters) = router.resolve(method: "POST", path: "/items/now") else {
      Issue.record("an eager handler was not called on the loop")
      return
    }
    var request = Request(method: "POST", path: "/items/now")
    request.parameters = parameters
    guard case .now(let response) = Router.run(handler, request) else {
      Issue.record("an answer given at once was left to a task")
      return
    }
    #expect(text(response) == "now")
    request.parameters = ["id": "refused"]
    guard case .now(let refusal) = Router.run(handler, request) else {
      Issue.record("a thrown error was not answered at once")
      return
    }
    #expect(refusal.status == 409)
    #expect(errorCode(refusal) == "conflict")
    request.parameters = ["id": "waiting"]
    guard case .later(let rest) = Router.run(handler, request) else {
      Issue.record("the work left was not given back")
      return
    }
    #expect(text(await Router.run(rest)) == "later")
    #expect(text(await router.respond(to: Request(method: "POST", path: "/items/waiting"))) == "later")
    #expect(errorCode(await router.respond(to: Request(method: "POST", path: "/items/failing"))) == "later")
    #expect(text(await router.respond(to: Request(method: "POST", path: "/items/now"))) == "now")
    guard case .handler(_, _, .sharedPool) = router.resolve(method: "POST", path: "/pooled") else {
      Issue.record("a pooled eager handler was not sent to the pool")
      return
    }
    #expect(text(await router.respond(to: Request(method: "POST", path: "/pooled"))) == "pooled")
    guard case .eager = router.copiedForOneLoop().resolve(method: "POST", path: "/items/x") else {
      Issue.record("a loop's copy changed an eager handler's kind")
      return
    }
  }

  @Test func anImmediateFallbackTakesUnroutedPaths() async {
    var router = self.router
    router.setFallback { request in .text("fallback \(request.path)") }
    #expect(text(await router.respond(to: Request(method: "GET", path: "/elsewhere"))) == "fallback /elsewhere")
    #expect(router.fallback != nil)
  }

  @Test func emptySegmentsAreIgnoredAndTheFirstRouteRegisteredWins() async {
    var router = Router()
    router.get("/items/{id}") { .text("item \($0.parameters["id"] ?? "?")") }
    router.get("/items/new") { _ in .text("new") }
    router.get("/items") { _ in .text("all") }
    #expect(text(await router.respond(to: Request(method: "GET", path: "//items//7/"))) == "item 7")
    #expect(text(await router.respond(to: Request(method: "GET", path: "/items/new"))) == "item new")
    #expect(text(await router.respond(to: Request(method: "GET", path: "/items/"))) == "all")
    #expect(await router.respond(to: Request(method: "GET", path: "/items/7/more")).status == 404)
    #expect(await router.respond(to: Request(method: "GET", path: "/")).status == 404)
  }

  @Test func aLoopsCopyAnswersAsTheRouterItWasCopiedFrom() async {
    var original = router
    original.get("/now/{what}") { .text("now \($0.parameters["what"] ?? "?")") }
    original.get("/pooled", runsOn: .sharedPool) { _ in .text("pooled") }
    original.setFallback { request in .text("fallback \(request.path)") }
    let copy = original.copiedForOneLoop()
    let requests = [
      ("GET", "/api/sessions/a%20b/events"), ("POST", "/api/sessions/7/actions"), ("PUT", "/api/sessions/1/events"),
      ("OPTIONS", "/api/sessions/1/actions"), ("GET", "/teapot"), ("GET", "/boom"), ("GET", "/now/then"),
      ("GET", "/pooled"), ("GET", "/elsewhere"), ("HEAD", "/api/sessions/1/events"),
    ]
    for (method, path) in requests {
      let expected = await original.respond(to: Request(method: method, path: path))
      let answered = await copy.respond(to: Request(method: method, path: path))
      #expect(answered.status == expected.status, "\(method) \(path)")
      #expect(answered.bodyBytes == expected.bodyBytes, "\(method) \(path)")
      #expect(answered.headers["Allow"] == expected.headers["Allow"], "\(method) \(path)")
    }
    guard case .immediate = copy.resolve(method: "GET", path: "/now/x"),
      case .handler(_, _, .sharedPool) = copy.resolve(method: "GET", path: "/pooled")
    else {
      Issue.record("the copy changed where a handler runs")
      return
    }
  }

  @Test func requestExposesDecodedQueryItems() {
    let request = Request(method: "GET", path: "/", query: "a=1&b=x+y&c=%2F&a=2")
    #expect(request.queryItems.map(\.value) == ["1", "x y", "/", "2"])
    #expect(request.queryItem("c") == "/")
  }

  @Test func requestExposesCookies() {
    let request = Request(method: "GET", path: "/", headers: ["Cookie": "a=1; token=\"x=y\"", "cookie": "b=2"])
    #expect(request.cookie("token") == "x=y")
    #expect(request.cookies.map(\.name) == ["a", "token", "b"])
    #expect(request.cookie("missing") == nil)
  }

  @Test func requestTargetForms() {
    #expect(RequestTarget("/a/b?x=1").map { [$0.path, $0.query] } == ["/a/b", "x=1"])
    #expect(RequestTarget("http://example.com/a?q").map { [$0.path, $0.query] } == ["/a", "q"])
    #expect(RequestTarget("example.com:443") == nil)
  }
}

@Suite struct JSONHelperTests {
  struct Payload: Codable, Equatable {
    var name: String
    var count: Int
  }

  private func request(_ body: String, type: String? = "application/json") -> Request {
    Request(method: "POST", path: "/", headers: type.map { ["Content-Type": $0] } ?? [:], body: Array(body.utf8))
  }

  @Test func decodesAJsonBody() throws {
    let value = try request(#"{"name":"a","count":2}"#, type: "application/json; charset=utf-8").decode(Payload.self)
    #expect(value == Payload(name: "a", count: 2))
  }

  @Test func wrongContentTypeIs415() {
    #expect(
      throws: HTTPError(
        status: 415, code: "unsupported_media_type", message: "The request body must be sent as application/json.")
    ) {
      try request("{}", type: "text/plain").decode(Payload.self)
    }
  }

  @Test func badJsonIs400NamingTheProblem() {
    do {
      _ = try request(#"{"name":"a"}"#).decode(Payload.self)
      Issue.record("expected an error")
    } catch {
      #expect(error.status == 400)
      #expect(error.code == "invalid_json")
      #expect(error.message.contains("count"))
    }
  }

  @Test func encodesJsonWithItsContentType() throws {
    let response = try Response.json(Payload(name: "n", count: 1), status: 201)
    #expect(response.status == 201)
    #expect(response.headers["Content-Type"] == Response.jsonContentType)
    #expect(try JSONDecoder().decode(Payload.self, from: Data(response.bodyBytes)) == Payload(name: "n", count: 1))
  }

  @Test func errorBodiesEscapeText() {
    let body = String(decoding: JSONErrorBody.encode(code: "c", message: "say \"hi\"\n"), as: UTF8.self)
    #expect(body == #"{"error":{"code":"c","message":"say \"hi\"\n"}}"#)
  }
}
