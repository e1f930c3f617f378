import Composable
import StoreHostJSON

/// Runs `base`, and tells the session's log watchers about each action first, whether a
/// client or an effect sent it: `event: action` with `{"action": {...}}` on `?log=1` streams.
struct ActionLogging<State, Action: Encodable>: Reducer {
  let base: Reduce<State, Action>
  let events: EventFanout

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if events.hasLogWatchers {
      var data = Array(#"{"action":"#.utf8)
      data.append(contentsOf: (try? JSONEncoding.encode(action)) ?? Array("null".utf8))
      data.append(UInt8(ascii: "}"))
      events.publishAction(data)
    }
    return base.reduce(into: &state, action: action)
  }
}
