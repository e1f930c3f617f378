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
  public init(event: String? = nil, id: String? = nil, data: some Collection<UInt8>) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(data.count + 32)
    if let event { Self.appendField("event: ", event, to: &bytes) }
    if let id { Self.appendField("id: ", id, to: &bytes) }
    let dataPrefix = Array("data: ".utf8)
    bytes.append(contentsOf: dataPrefix)
    var afterCarriageReturn = false
    for byte in data {
      switch byte {
      case UInt8(ascii: "\n") where afterCarriageReturn:
        afterCarriageReturn = false
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: dataPrefix)
        afterCarriageReturn = byte == UInt8(ascii: "\r")
      default:
        bytes.append(byte)
        afterCarriageReturn = false
      }
    }
    bytes.append(contentsOf: [UInt8(ascii: "\n"), UInt8(ascii: "\n")])
    storage = FrameStorage(bytes)
  }

  /// A frame of text `data`.
  public init(event: String? = nil, id: String? = nil, data: String) {
    self.init(event: event, id: id, data: data.utf8)
  }

  private init(rawBytes: [UInt8]) {
    storage = FrameStorage(rawBytes)
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

  private static func appendField(_ name: String, _ value: String, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: name.utf8)
    bytes.append(contentsOf: singleLine(value).utf8)
    bytes.append(UInt8(ascii: "\n"))
  }

  private static func singleLine(_ text: String) -> String {
    String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
  }
}

/// The bytes of one frame in memory of their own, so their address stays put while
/// connections hand them to `sendmsg`.
final class FrameStorage: @unchecked Sendable {
  let base: UnsafeMutableRawPointer
  let count: Int

  init(_ bytes: [UInt8]) {
    count = bytes.count
    base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
    bytes.withUnsafeBytes { if let source = $0.baseAddress { base.copyMemory(from: source, byteCount: count) } }
  }

  deinit { base.deallocate() }
}
