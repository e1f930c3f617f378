/// A type's name without module names or anonymous contexts: `Counter.State`,
/// `Optional<Int>`.
func typeName(_ type: Any.Type) -> String {
  let name = String(reflecting: type)
    .replacing(/\(unknown context at \$[0-9a-fA-F]+\)\./, with: "")
    .replacing(/\(extension in [^)]+\):/, with: "")
  var result = ""
  var path = ""
  // The first component of a dotted path is its module; `.Member` after `>` is not a path.
  func flushPath() {
    if !path.hasPrefix("."), let dot = path.firstIndex(of: ".") {
      result += path[path.index(after: dot)...]
    } else {
      result += path
    }
    path = ""
  }
  for character in name {
    if character.isLetter || character.isNumber || character == "_" || character == "." {
      path.append(character)
    } else {
      flushPath()
      result.append(character)
    }
  }
  flushPath()
  return result
}
