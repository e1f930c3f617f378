/// The `text/event-stream` wire format.
enum EventFrame {
  /// `event:`, `id:` and one `data:` line per line of `data`, then a blank line. Line
  /// breaks inside `event` and `id` are removed so they cannot start a new field.
  static func event(event: String?, id: String?, data: String) -> [UInt8] {
    var text = ""
    text.reserveCapacity(data.utf8.count + 32)
    if let event { text += "event: " + singleLine(event) + "\n" }
    if let id { text += "id: " + singleLine(id) + "\n" }
    var lineStart = data.startIndex
    var index = data.startIndex
    while index < data.endIndex {
      let character = data[index]
      if character == "\n" || character == "\r" || character == "\r\n" {
        text += "data: " + data[lineStart..<index] + "\n"
        lineStart = data.index(after: index)
      }
      index = data.index(after: index)
    }
    text += "data: " + data[lineStart...] + "\n\n"
    return Array(text.utf8)
  }

  /// `: text` and a blank line.
  static func comment(_ text: String) -> [UInt8] { Array((": " + singleLine(text) + "\n\n").utf8) }

  private static func singleLine(_ text: String) -> String {
    String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
  }
}
