// libFuzzer target for `RequestParser`, compiled together with Sources/HTTP/Parser/*.swift
// by Fuzz/run.sh. Besides "never crash, never hang", it checks two properties on every
// input: feeding the bytes all at once or in small pieces gives the same requests (or the
// same error status), and no request's body exceeds the configured limit.

/// A request stream reduced to what must not depend on how bytes were split.
private enum Event: Equatable {
  case head(RequestHead)
  case body([UInt8])
  case end
  case failure(Int)
}

private func events(_ bytes: [UInt8], pieces: Int, limits: HTTPLimits) -> [Event] {
  var parser = RequestParser(limits: limits)
  var result: [Event] = []
  var offset = 0
  let step = max(1, pieces)
  while true {
    if offset < bytes.count {
      let end = min(bytes.count, offset + step)
      parser.append(bytes[offset..<end])
      offset = end
    }
    do {
      while let part = try parser.next() {
        switch part {
        case .head(let head): result.append(.head(head))
        case .body(let piece):
          if case .body(let previous) = result.last {
            result[result.count - 1] = .body(previous + piece)
          } else {
            result.append(.body(piece))
          }
        case .end: result.append(.end)
        }
      }
    } catch {
      result.append(.failure(error.status))
      precondition((try? parser.next()) == nil, "the parser produced a part after an error")
      return result
    }
    if offset >= bytes.count { return result }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var limits = HTTPLimits()
  limits.maxHeadBytes = 512
  limits.maxHeaderCount = 16
  limits.maxBodyBytes = 256
  let whole = events(bytes, pieces: bytes.count, limits: limits)
  let split = events(bytes, pieces: 1 + Int(bytes.first ?? 0) % 7, limits: limits)
  precondition(whole == split, "splitting the input changed the result:\n\(whole)\n\(split)")
  for case .body(let body) in whole {
    precondition(body.count <= limits.maxBodyBytes, "a body exceeded the limit")
  }
  return 0
}
