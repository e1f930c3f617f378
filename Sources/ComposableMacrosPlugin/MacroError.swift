/// A problem with the declaration a macro is attached to, shown by the compiler as an error.
struct MacroError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
}
