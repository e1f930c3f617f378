import ComposableArchitecture
import ComposableTesting
import Foundation
import Testing

/// Formats the current date's day in the dependencies' calendar, locale and time zone.
private struct DayFormatter: Reducer {
  struct State: Equatable {
    var day = ""
  }
  enum Action: Equatable {
    case format
  }

  @Dependency(\.calendar) var calendar
  @Dependency(\.date.now) var now
  @Dependency(\.locale) var locale
  @Dependency(\.timeZone) var timeZone

  var body: some Reducer<State, Action> {
    Reduce { state, _ in
      var calendar = calendar
      calendar.timeZone = timeZone
      calendar.locale = locale
      state.day = "\(calendar.component(.day, from: now))"
      return .none
    }
  }
}

@Test
func calendarLocaleAndTimeZoneAreDependencies() async {
  let store = TestStore(initialState: DayFormatter.State()) {
    DayFormatter()
  } withDependencies: {
    $0.calendar = Calendar(identifier: .gregorian)
    $0.date.now = Date(timeIntervalSince1970: 0)
    $0.locale = Locale(identifier: "en_US")
    $0.timeZone = TimeZone(secondsFromGMT: 0)!
  }
  await store.send(.format) {
    $0.day = "1"
  }
}

@Test
func transformDependencyChangesPartOfADependency() async {
  let store = TestStore(initialState: DayFormatter.State()) {
    DayFormatter()
      .transformDependency(\.timeZone) { $0 = TimeZone(secondsFromGMT: -3600)! }
  } withDependencies: {
    $0.calendar = Calendar(identifier: .gregorian)
    $0.date.now = Date(timeIntervalSince1970: 0)
    $0.locale = Locale(identifier: "en_US")
    $0.timeZone = TimeZone(secondsFromGMT: 0)!
  }
  await store.send(.format) {
    $0.day = "31"
  }
}

@Test
func theValueNearestTheReducerWins() async {
  let store = TestStore(initialState: DayFormatter.State()) {
    DayFormatter()
      .dependency(\.timeZone, TimeZone(secondsFromGMT: -3600)!)
      .dependency(\.timeZone, TimeZone(secondsFromGMT: 0)!)
  } withDependencies: {
    $0.calendar = Calendar(identifier: .gregorian)
    $0.date.now = Date(timeIntervalSince1970: 0)
    $0.locale = Locale(identifier: "en_US")
  }
  await store.send(.format) {
    $0.day = "31"
  }
}
