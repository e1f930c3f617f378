/// Marks an action case that clients may not send: effect responses, timers, delegate
/// actions. Decoding with the client policy (``ActionDecoding``) rejects it; other decoding
/// (persistence, logs) accepts it. Read by ``CasePathable()``; expands to nothing.
///
/// ```swift
/// @Internal case timerTicked
/// ```
@attached(peer)
public macro Internal() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "MarkerMacro")
