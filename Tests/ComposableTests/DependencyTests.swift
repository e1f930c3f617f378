import Composable
import Foundation
import Testing

private struct GreetingClient: Sendable {
  var greet: @Sendable (String) -> String
}

extension GreetingClient: DependencyKey {
  static let liveValue = GreetingClient { "Hello, \($0)!" }
}

extension DependencyValues {
  fileprivate var greeting: GreetingClient {
    get { self[GreetingClient.self] }
    set { self[GreetingClient.self] = newValue }
  }
}

private struct Greeter: Reducer {
  struct State: Equatable { var message = "" }
  enum Action: Equatable { case greet(String) }
  @Dependency(\.greeting) var greeting

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case let .greet(name) = action else { return .none }
    state.message = greeting.greet(name)
    return .none
  }
}

@Suite struct DependencyTests {
  @Test func liveValueInTheLiveContext() {
    withDependencies { $0.context = .live } operation: {
      @Dependency(\.greeting) var greeting
      #expect(greeting.greet("Blob") == "Hello, Blob!")
    }
  }

  @Test func testsRunInTheTestContext() {
    @Dependency(\.context) var context
    #expect(context == .test)
  }

  @Test func withDependenciesOverridesForTheOperationOnly() {
    withDependencies { $0.context = .live } operation: {
      @Dependency(\.greeting) var greeting
      withDependencies {
        $0.greeting = GreetingClient { "Hi \($0)" }
      } operation: {
        #expect(greeting.greet("Blob") == "Hi Blob")
      }
      #expect(greeting.greet("Blob") == "Hello, Blob!")
    }
  }

  @Test func overridesAreInheritedByChildTasks() async {
    let message = await withDependencies {
      $0.greeting = GreetingClient { "Yo \($0)" }
    } operation: {
      await Task {
        @Dependency(\.greeting) var greeting
        return greeting.greet("Blob")
      }.value
    }
    #expect(message == "Yo Blob")
  }

  @Test func eachStoreKeepsItsOwnOverrides() {
    let one = Store(initialState: Greeter.State()) { Greeter() } withDependencies: {
      $0.greeting = GreetingClient { "One \($0)" }
    }
    let two = Store(initialState: Greeter.State()) { Greeter() } withDependencies: { $0.context = .live }
    one.send(.greet("Blob"))
    two.send(.greet("Blob"))
    #expect(one.message == "One Blob")
    #expect(two.message == "Hello, Blob!")
  }

  @Test func aTestValueThatWasNeverSetReportsTheDependencyName() async {
    let issues = IssueCollector()
    await issues.collect {
      withDependencies { $0.context = .test } operation: {
        @Dependency(\.greeting) var greeting
        _ = greeting.greet("Blob")
      }
    }
    #expect(issues.reported.count == 1)
    #expect(
      issues.reported.first?.contains("@Dependency(\\.greeting) has no test implementation") == true,
      "\(issues.reported)")
  }

  @Test func builtInTestValuesReportUse() async {
    let issues = IssueCollector()
    await issues.collect {
      withDependencies { $0.context = .test } operation: {
        @Dependency(\.uuid) var uuid
        @Dependency(\.date) var date
        @Dependency(\.continuousClock) var clock
        _ = uuid()
        _ = date.now
        _ = clock.now
      }
    }
    #expect(issues.reported.count == 3)
    #expect(issues.reported.contains { $0.contains("@Dependency(\\.uuid)") })
    #expect(issues.reported.contains { $0.contains("@Dependency(\\.date)") })
    #expect(issues.reported.contains { $0.contains("@Dependency(\\.continuousClock)") })
  }

  @Test func builtInHelpersArePredictable() {
    let uuid = UUIDGenerator.incrementing
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000001")
    let date = DateGenerator.constant(Date(timeIntervalSince1970: 42))
    #expect(date.now.timeIntervalSince1970 == 42)
    let one = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 7))
    let two = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 7))
    let rollsOne = (0..<5).map { _ in one { Int.random(in: 1...6, using: &$0) } }
    let rollsTwo = (0..<5).map { _ in two { Int.random(in: 1...6, using: &$0) } }
    #expect(rollsOne == rollsTwo)
  }

  @Test func immediateClockSleepsWithoutWaiting() async throws {
    let clock = ImmediateClock()
    let start = ContinuousClock.now
    try await clock.sleep(for: .seconds(3600))
    // Far less than the hour it was asked to sleep, however loaded the machine.
    #expect(ContinuousClock.now - start < .seconds(600))
    #expect(clock.now.offset == .seconds(3600))
  }

  @Test func testClockWakesSleepersInDeadlineOrder() async {
    let clock = TestClock()
    let woke = Recorder<Int>()
    let tasks = [3, 1, 2].map { seconds in
      Task {
        try? await clock.sleep(for: .seconds(seconds))
        woke.record(seconds)
      }
    }
    while clock.sleeperCount < 3 { await Task.yield() }
    await clock.advance(by: .seconds(1))
    #expect(woke.values == [1])
    await clock.run()
    for task in tasks { await task.value }
    #expect(woke.values == [1, 2, 3])
  }
}
