import Foundation
import HTTP
import Testing

@testable import StoreHost

#if canImport(Glibc)
  import Glibc
#endif

/// The forwards waiting for an owner are bounded: past the bound a forward is refused at
/// once, and answered 503 `forwarding_busy` with `Retry-After`, rather than queued without end
/// behind an owner that does not answer.
@Suite struct RequestForwarderTests {
  @Test func aFullQueueRefusesMoreForwardsAtOnce() throws {
    let owner = try SilentOwner()
    defer { owner.close() }
    let forwarder = RequestForwarder(
      processID: "1-test", signer: try SessionTokenSigner(secret: Array(repeating: 7, count: 32)))
    defer { forwarder.stop() }
    let request = Request(method: "POST", path: "/api/sessions/abc/actions", body: Array("1".utf8))
    var accepted: [ForwardExchange] = []
    var refused = false
    let bound = RequestForwarder.maxQueued + RequestForwarder.threadsPerOwner
    while accepted.count <= bound {
      do {
        accepted.append(try forwarder.start(request, token: "t", key: "k", to: "http://127.0.0.1:\(owner.port)"))
      } catch .busy {
        refused = true
        break
      }
    }
    #expect(refused, "\(accepted.count) forwards queued for an owner that never answers")
    #expect(accepted.count >= RequestForwarder.maxQueued && accepted.count <= bound)
    for exchange in accepted { exchange.abandon() }
    let busy = HTTPError.forwardingBusy()
    #expect(busy.status == 503 && busy.code == "forwarding_busy" && busy.headers["Retry-After"] == "1")
  }
}

/// A TCP listener that never accepts: connections complete in the kernel's backlog, and no
/// answer ever comes, as with a stopped process.
private struct SilentOwner {
  let descriptor: Int32
  let port: Int

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(descriptor, address, length) == 0 && listen(descriptor, 64) == 0
          && getsockname(descriptor, address, &length) == 0
      }
    }
    guard bound else {
      _ = Glibc.close(descriptor)
      throw POSIXError(.EADDRNOTAVAIL)
    }
    self.descriptor = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  func close() { _ = Glibc.close(descriptor) }
}
