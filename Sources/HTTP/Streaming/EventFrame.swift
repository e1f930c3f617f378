import Glibc

/// One `text/event-stream` frame as immutable bytes: made once, then written to any number
/// of streams as it is, with no copy per stream.
///
/// ```swift
/// let frame = EventFrame(event: "state", id: "7", data: Array(#"{"count":1}"#.utf8))
/// for stream in streams { stream.send(frame) }
/// ```
public struct EventFrame: Sendable {
  let storage: FrameStorage

  /// `event:`, `id:` and one `data:` line per line of `data` (UTF-8, split at `\n`, `\r\n`
  /// and `\r`), then a blank line. Line breaks inside `event` and `id` are removed so they
  /// cannot start a new field.
  public init(event: String? = nil, id: String? = nil, data: [UInt8]) {
    self.init(event: event, id: id, dataParts: CollectionOfOne(data))
  }

  /// A frame whose data is the concatenation of `parts`, written in one pass into memory
  /// of the frame's own (see ``init(event:id:data:)-(_,_,[UInt8])``).
  public init(event: String? = nil, id: String? = nil, data parts: [[UInt8]]) {
    self.init(event: event, id: id, dataParts: parts)
  }

  private init(event: String?, id: String?, dataParts parts: some Collection<[UInt8]>) {
    let event = event.map(Self.singleLine)
    let id = id.map(Self.singleLine)
    var lineBreaks = 0
    for part in parts {
      part.withUnsafeBufferPointer { lineBreaks += Self.lineBreakCount($0) }
    }
    let capacity =
      (event.map { 8 + $0.utf8.count } ?? 0) + (id.map { 5 + $0.utf8.count } ?? 0)
      + parts.reduce(0) { $0 + $1.count } + (lineBreaks + 1) * 7 + 1
    storage = FrameStorage(capacity: capacity) { writer in
      if let event { writer.append(field: "event: ", event) }
      if let id { writer.append(field: "id: ", id) }
      writer.append("data: ")
      var afterCarriageReturn = false
      for part in parts {
        part.withUnsafeBufferPointer { part in
          guard lineBreaks > 0 else { return writer.append(part) }
          for byte in part {
            switch byte {
            case UInt8(ascii: "\n") where afterCarriageReturn:
              afterCarriageReturn = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
              writer.append("\ndata: ")
              afterCarriageReturn = byte == UInt8(ascii: "\r")
            default:
              writer.append(byte)
              afterCarriageReturn = false
            }
          }
        }
      }
      writer.append("\n\n")
    }
  }

  /// How many `\n` or `\r` bytes `bytes` holds, found with `memchr`.
  private static func lineBreakCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var count = 0
    for target in [UInt8(ascii: "\n"), UInt8(ascii: "\r")] {
      var start = UnsafeRawPointer(base)
      var remaining = bytes.count
      while remaining > 0, let found = memchr(start, Int32(target), remaining) {
        count += 1
        remaining -= UnsafeRawPointer(found) - start + 1
        start = UnsafeRawPointer(found) + 1
      }
    }
    return count
  }

  /// A frame of text `data`.
  public init(event: String? = nil, id: String? = nil, data: String) {
    self.init(event: event, id: id, data: Array(data.utf8))
  }

  private init(rawBytes: [UInt8]) {
    storage = FrameStorage(capacity: rawBytes.count) { $0.append(rawBytes) }
  }

  /// `: text` and a blank line: a comment clients ignore, such as a keep-alive.
  public static func comment(_ text: String) -> EventFrame {
    EventFrame(rawBytes: Array((": " + singleLine(text) + "\n\n").utf8))
  }

  /// `retry: milliseconds`: how long a client waits before reconnecting.
  public static func retry(milliseconds: Int) -> EventFrame {
    EventFrame(rawBytes: Array("retry: \(milliseconds)\n\n".utf8))
  }

  /// The frame's length in bytes.
  public var count: Int { storage.count }

  /// The frame's bytes.
  public var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: storage.base, count: storage.count)) }

  private static func singleLine(_ text: String) -> String {
    String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
  }
}

/// The bytes of one frame in memory of their own, so their address stays put while
/// connections hand them to `sendmsg`.
final class FrameStorage: @unchecked Sendable {
  let base: UnsafeMutableRawPointer
  let count: Int

  /// Memory for at most `capacity` bytes, filled by `fill`.
  init(capacity: Int, _ fill: (inout FrameWriter) -> Void) {
    base = UnsafeMutableRawPointer.allocate(byteCount: max(capacity, 1), alignment: 1)
    var writer = FrameWriter(base: base, capacity: capacity)
    fill(&writer)
    count = writer.count
  }

  deinit { base.deallocate() }
}

/// Appends bytes to a frame's memory, within the capacity it was given.
struct FrameWriter {
  let base: UnsafeMutableRawPointer
  let capacity: Int
  private(set) var count = 0

  init(base: UnsafeMutableRawPointer, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    precondition(count + bytes.count <= capacity, "frame larger than its capacity")
    if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
    count += bytes.count
  }

  mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  mutating func append(_ byte: UInt8) {
    precondition(count < capacity, "frame larger than its capacity")
    base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
    count += 1
  }

  mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { append($0) }
  }

  mutating func append(field name: StaticString, _ value: String) {
    append(name)
    var value = value
    value.withUTF8 { append($0) }
    append(UInt8(ascii: "\n"))
  }
}
