/// An HTTP/1.1 request parser (RFC 9112) as a plain value: append bytes, then pull
/// ``Part``s. It never reads a socket, so it can be tested and fuzzed on its own.
///
/// ```swift
/// var parser = RequestParser(limits: HTTPLimits())
/// parser.append(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
/// while let part = try parser.next() { … }   // .head, then .end
/// ```
///
/// Any framing it cannot read unambiguously (bare LF, obs-fold, both Content-Length and
/// Transfer-Encoding, differing Content-Lengths, bad chunk sizes) throws an
/// ``HTTPParseError``; after an error the parser yields nothing more.
public struct RequestParser: Sendable {
  /// One piece of a request, in order: a head, any number of body pieces, an end.
  public enum Part: Sendable, Equatable {
    case head(RequestHead)
    case body([UInt8])
    case end
  }

  private enum State: Sendable {
    case head
    case fixedBody(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkDataEnd
    case trailers
    case end
    case failed
  }

  /// Bytes of a request line besides its target: the longest method, spaces and version.
  private static let requestLineRoom = 64

  /// Longest chunk-size line accepted, extensions included.
  private static let maxChunkLineBytes = 1024

  /// The limits enforced.
  public let limits: HTTPLimits
  private var buffer: [UInt8] = []
  private var index = 0
  private var state = State.head
  private var bodyBytesSeen = 0
  /// Where the scan for the end of the current head or trailer section resumes.
  private var scanOffset = 0

  /// A parser expecting the first request of a connection.
  public init(limits: HTTPLimits) { self.limits = limits }

  /// Bytes received but not yet returned as parts.
  public var bufferedByteCount: Int { buffer.count - index }

  /// Adds received bytes.
  public mutating func append(_ bytes: some Sequence<UInt8>) {
    if index > 0 && index >= buffer.count / 2 {
      buffer.removeSubrange(0..<index)
      scanOffset -= index
      index = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Frees the buffer when every byte in it has been returned, for a connection that reads
  /// nothing more for a long while (an event stream); the next ``append(_:)`` makes a new one.
  mutating func releaseBufferIfEmpty() {
    guard bufferedByteCount == 0 else { return }
    buffer = []
    scanOffset -= index
    index = 0
  }

  /// The next complete part, or `nil` when more bytes are needed.
  public mutating func next() throws(HTTPParseError) -> Part? {
    do {
      return try step()
    } catch {
      state = .failed
      throw error
    }
  }

  private mutating func step() throws(HTTPParseError) -> Part? {
    while true {
      switch state {
      case .failed:
        return nil
      case .end:
        state = .head
        scanOffset = index
        bodyBytesSeen = 0
        return .end
      case .head:
        guard let head = try parseHead() else { return nil }
        switch head.framing {
        case .none, .length(0): state = .end
        case .length(let length): state = .fixedBody(remaining: length)
        case .chunked: state = .chunkSize
        }
        return .head(head)
      case .fixedBody(let remaining):
        let available = min(remaining, bufferedByteCount)
        guard available > 0 else { return nil }
        let piece = Array(buffer[index..<index + available])
        index += available
        state = remaining == available ? .end : .fixedBody(remaining: remaining - available)
        return .body(piece)
      case .chunkSize:
        guard let size = try parseChunkSize() else { return nil }
        if size == 0 {
          state = .trailers
          scanOffset = index
        } else {
          bodyBytesSeen += size
          if bodyBytesSeen > limits.maxBodyBytes { throw .bodyTooLarge }
          state = .chunkData(remaining: size)
        }
      case .chunkData(let remaining):
        let available = min(remaining, bufferedByteCount)
        guard available > 0 else { return nil }
        let piece = Array(buffer[index..<index + available])
        index += available
        state = remaining == available ? .chunkDataEnd : .chunkData(remaining: remaining - available)
        return .body(piece)
      case .chunkDataEnd:
        guard bufferedByteCount >= 2 else { return nil }
        guard buffer[index] == CR && buffer[index + 1] == LF else {
          throw .badRequest("A chunk's data is not followed by CRLF.")
        }
        index += 2
        state = .chunkSize
      case .trailers:
        guard var lines = try section(startsWithRequestLine: false) else { return nil }
        // Trailer fields are validated like headers, then dropped: nothing here uses them.
        _ = try parseFields(&lines, section: "trailer")
        state = .end
      }
    }
  }

  // MARK: Head

  private mutating func parseHead() throws(HTTPParseError) -> RequestHead? {
    // RFC 9112 §2.2: ignore empty lines before a request line.
    while bufferedByteCount >= 2 && buffer[index] == CR && buffer[index + 1] == LF {
      index += 2
      scanOffset = max(scanOffset, index)
    }
    if bufferedByteCount >= 1 && buffer[index] == LF { throw .badRequest("The request uses a bare LF line ending.") }
    guard var lines = try section(startsWithRequestLine: true) else { return nil }
    guard let requestLine = try lines.next(in: buffer) else { throw .badRequest("The request line is missing.") }
    let (method, target, minor) = try parseRequestLine(buffer[requestLine])
    let headers = try parseFields(&lines, section: "header")
    if minor == 1 && headers.count(of: "Host") != 1 {
      throw .badRequest("An HTTP/1.1 request needs exactly one Host header.")
    }
    let framing = try bodyFraming(method: method, minorVersion: minor, headers: headers)
    return RequestHead(method: method, target: target, minorVersion: minor, headers: headers, framing: framing)
  }

  /// The lines of a CRLF-terminated section (head or trailers) ending in an empty line, or
  /// `nil` until the whole section is buffered; the section is consumed. A head whose
  /// request line alone passes the limits is refused as a target too long (414), any other
  /// as too large.
  private mutating func section(startsWithRequestLine: Bool) throws(HTTPParseError) -> SectionLines? {
    let start = index
    // Scan no further than the limit allows, so the outcome never depends on how the
    // bytes were split into reads.
    let scanLimit = min(buffer.count, start + limits.maxHeadBytes)
    var position = max(scanOffset, start)
    var found: Int?
    while position < scanLimit {
      if buffer[position] == LF {
        if position == start || buffer[position - 1] != CR {
          throw .badRequest("The request uses a bare LF line ending.")
        }
        // An empty line: CRLF directly after the previous CRLF (or at the section start).
        if position - 1 == start || (position >= start + 3 && buffer[position - 2] == LF) {
          found = position + 1
          break
        }
      }
      position += 1
    }
    guard let end = found else {
      scanOffset = position
      let pastHeadLimit = buffer.count - start >= limits.maxHeadBytes
      if startsWithRequestLine && (pastHeadLimit || position - start > limits.maxRequestTargetBytes + Self.requestLineRoom)
        && !buffer[start..<position].contains(LF)
      {
        throw .uriTooLong
      }
      if pastHeadLimit { throw .headTooLarge }
      return nil
    }
    index = end
    scanOffset = end
    return SectionLines(cursor: start, end: end - 2)
  }

  /// The lines of a buffered section, read one at a time: each line's range, without its
  /// CRLF, until the empty line that ends the section.
  private struct SectionLines {
    var cursor: Int
    /// Where the section's final CRLF starts.
    let end: Int

    /// How many lines are left (each ends in CRLF before `end`): the room a section's
    /// fields need, made once.
    func remainingCount(in buffer: [UInt8]) -> Int {
      var count = 0
      for index in cursor..<end where buffer[index] == LF { count += 1 }
      return count
    }

    mutating func next(in buffer: [UInt8]) throws(HTTPParseError) -> Range<Int>? {
      let lineStart = cursor
      while cursor < end {
        if buffer[cursor] == CR {
          guard buffer[cursor + 1] == LF else { throw .badRequest("The request contains a bare CR.") }
          defer { cursor += 2 }
          return lineStart..<cursor
        }
        cursor += 1
      }
      return nil
    }
  }

  private func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String, Int) {
    guard let firstSpace = line.firstIndex(of: SP),
      let secondSpace = line[(firstSpace + 1)...].firstIndex(of: SP)
    else { throw .badRequest("The request line is not 'method target version'.") }
    let method = line[..<firstSpace]
    let target = line[(firstSpace + 1)..<secondSpace]
    let version = line[(secondSpace + 1)...]
    guard !method.isEmpty, method.allSatisfy(isTokenByte) else {
      throw .badRequest("The request method is not a valid token.")
    }
    guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw .badRequest("The request target contains invalid characters.")
    }
    guard target.count <= limits.maxRequestTargetBytes else { throw .uriTooLong }
    guard version.count == 8, version.starts(with: "HTTP/".utf8) else {
      throw .badRequest("The HTTP version is malformed.")
    }
    let major = version[version.startIndex + 5]
    let dot = version[version.startIndex + 6]
    let minor = version[version.startIndex + 7]
    guard isDigit(major), dot == UInt8(ascii: "."), isDigit(minor) else {
      throw .badRequest("The HTTP version is malformed.")
    }
    guard major == UInt8(ascii: "1"), minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") else {
      throw .versionNotSupported
    }
    return (String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self), Int(minor - 0x30))
  }

  private func parseFields(_ lines: inout SectionLines, section: String) throws(HTTPParseError) -> HTTPHeaders {
    var headers = HTTPHeaders()
    headers.reserveCapacity(min(lines.remainingCount(in: buffer), limits.maxHeaderCount))
    while let range = try lines.next(in: buffer) {
      guard headers.fields.count < limits.maxHeaderCount else { throw .tooManyHeaders }
      let line = buffer[range]
      guard let first = line.first else { throw .badRequest("A \(section) line is empty.") }
      if first == SP || first == HTAB {
        throw .badRequest("The request uses obsolete line folding in its \(section) fields.")
      }
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
        throw .badRequest("A \(section) field has no colon.")
      }
      let name = line[line.startIndex..<colon]
      guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
        throw .badRequest("A \(section) field name is not a valid token.")
      }
      var valueStart = colon + 1
      var valueEnd = line.endIndex
      while valueStart < valueEnd && (line[valueStart] == SP || line[valueStart] == HTAB) { valueStart += 1 }
      while valueEnd > valueStart && (line[valueEnd - 1] == SP || line[valueEnd - 1] == HTAB) { valueEnd -= 1 }
      let value = line[valueStart..<valueEnd]
      guard value.allSatisfy({ $0 == HTAB || ($0 >= 0x20 && $0 != 0x7F) }) else {
        throw .badRequest("A \(section) field value contains control characters.")
      }
      headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }
    return headers
  }

  private func bodyFraming(method: String, minorVersion: Int, headers: HTTPHeaders) throws(HTTPParseError)
    -> BodyFraming
  {
    switch Self.plainFraming(in: headers) {
    case .length(let length):
      if length > limits.maxBodyBytes { throw .bodyTooLarge }
      return .length(length)
    case .noFramingFields:
      return try unframed(method: method)
    case nil:
      break
    }
    let transferEncodings = headers.values("Transfer-Encoding")
    let contentLengths = headers.values("Content-Length")
    if !transferEncodings.isEmpty {
      if !contentLengths.isEmpty {
        throw .ambiguousFraming("The request has both Content-Length and Transfer-Encoding.")
      }
      if minorVersion == 0 { throw .ambiguousFraming("HTTP/1.0 requests cannot use Transfer-Encoding.") }
      let codings = transferEncodings.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        .map { String($0).trimmingOWS() }
      guard let last = codings.last, HTTPHeaders.namesEqual(last, "chunked") else {
        if codings.contains(where: { HTTPHeaders.namesEqual($0, "chunked") }) {
          throw .ambiguousFraming("The chunked transfer coding must be the last one.")
        }
        throw .unsupportedTransferEncoding
      }
      guard codings.count == 1 else { throw .unsupportedTransferEncoding }
      return .chunked
    }
    if !contentLengths.isEmpty {
      var length: Int?
      for value in contentLengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
        guard let parsed = Self.length(digits: String(value).trimmingOWS().utf8) else {
          throw .badRequest("The Content-Length header is not a number.")
        }
        if let length, length != parsed {
          throw .ambiguousFraming("The request has differing Content-Length values.")
        }
        length = parsed
      }
      guard let length else { throw .badRequest("The Content-Length header is empty.") }
      if length > limits.maxBodyBytes { throw .bodyTooLarge }
      return .length(length)
    }
    return try unframed(method: method)
  }

  /// A request with neither `Content-Length` nor `Transfer-Encoding`: it has no body, which
  /// methods that send one may be required to say (411).
  private func unframed(method: String) throws(HTTPParseError) -> BodyFraming {
    if limits.requireLengthForBodies && (method == "POST" || method == "PUT" || method == "PATCH") {
      throw .lengthRequired
    }
    return .none
  }

  /// The framing fields of the common cases, read in one pass without allocating.
  private enum PlainFraming {
    /// Neither `Content-Length` nor `Transfer-Encoding`.
    case noFramingFields
    /// One `Content-Length` of up to 18 digits and no `Transfer-Encoding`.
    case length(Int)
  }

  /// The framing of the common cases; `nil` for anything else, which the general rules decide.
  private static func plainFraming(in headers: HTTPHeaders) -> PlainFraming? {
    var value: String?
    for field in headers.fields {
      if HTTPHeaders.namesEqual(field.name, "Transfer-Encoding") { return nil }
      if HTTPHeaders.namesEqual(field.name, "Content-Length") {
        guard value == nil else { return nil }
        value = field.value
      }
    }
    guard let value else { return .noFramingFields }
    return length(digits: value.utf8).map { .length($0) }
  }

  /// A `Content-Length` value: 1 to 18 decimal digits and nothing else, or `nil`.
  private static func length(digits: String.UTF8View) -> Int? {
    guard !digits.isEmpty, digits.count <= 18 else { return nil }
    var length = 0
    for byte in digits {
      guard isDigit(byte) else { return nil }
      length = length * 10 + Int(byte - 0x30)
    }
    return length
  }

  // MARK: Chunks

  private mutating func parseChunkSize() throws(HTTPParseError) -> Int? {
    var position = index
    let limit = min(buffer.count, index + Self.maxChunkLineBytes)
    while position < limit && buffer[position] != LF { position += 1 }
    guard position < limit else {
      if buffer.count - index >= Self.maxChunkLineBytes { throw .badRequest("A chunk-size line is too long.") }
      return nil
    }
    guard position > index, buffer[position - 1] == CR else {
      throw .badRequest("A chunk-size line uses a bare LF line ending.")
    }
    let line = buffer[index..<(position - 1)]
    var size = 0
    var digits = 0
    var cursor = line.startIndex
    while cursor < line.endIndex, let value = hexValue(line[cursor]) {
      digits += 1
      guard digits <= 15 else { throw .badRequest("A chunk size is too large.") }
      size = size << 4 | value
      cursor += 1
    }
    guard digits > 0 else { throw .badRequest("A chunk size is not a hexadecimal number.") }
    // Only BWS then `;extension` may follow the digits; extensions are ignored.
    while cursor < line.endIndex && (line[cursor] == SP || line[cursor] == HTAB) { cursor += 1 }
    if cursor < line.endIndex {
      guard line[cursor] == UInt8(ascii: ";") else { throw .badRequest("A chunk size is not a hexadecimal number.") }
      guard line[cursor...].allSatisfy({ $0 == HTAB || ($0 >= 0x20 && $0 != 0x7F) }) else {
        throw .badRequest("A chunk extension contains control characters.")
      }
    }
    index = position + 1
    return size
  }
}

private let CR: UInt8 = 0x0D
private let LF: UInt8 = 0x0A
private let SP: UInt8 = 0x20
private let HTAB: UInt8 = 0x09

private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

private func hexValue(_ byte: UInt8) -> Int? {
  switch byte {
  case 0x30...0x39: Int(byte - 0x30)
  case 0x41...0x46: Int(byte - 0x41 + 10)
  case 0x61...0x66: Int(byte - 0x61 + 10)
  default: nil
  }
}

/// RFC 9110 `tchar`.
private func isTokenByte(_ byte: UInt8) -> Bool {
  switch byte {
  case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
  case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
    UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
    UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
    true
  default: false
  }
}
