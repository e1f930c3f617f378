import Composable
import Foundation

/// Runs `base`, and tells the session's log watchers about each action first, whether a
/// client or an effect sent it: `event: action` with `{"action": {...}}` on `?log=1` streams.
struct ActionLogging<State, Action: Encodable>: Reducer {
  let base: Reduce<State, Action>
  let events: EventFanout

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if events.hasLogWatchers {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      let json = (try? encoder.encode(action)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
      events.publishAction(#"{"action":\#(json)}"#)
    }
    return base.reduce(into: &state, action: action)
  }
}
