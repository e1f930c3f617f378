/// The content codings a static file may be kept in beside its plain bytes.
enum ContentCoding: String, Sendable {
  case identity
  case br
  case gzip

  /// The variants looked for beside a file, best first.
  static let precompressed: [ContentCoding] = [.br, .gzip]

  /// The suffix of the variant's file name: `app.js.br`, `app.js.gz`.
  var fileSuffix: String {
    switch self {
    case .identity: ""
    case .br: ".br"
    case .gzip: ".gz"
    }
  }

  /// The codings an `Accept-Encoding` value accepts (`q=0` refuses one; `*` accepts any
  /// not named). Identity is always served when nothing better is accepted.
  static func accepted(by header: String?) -> Set<ContentCoding> {
    guard let header else { return [] }
    var accepted: Set<ContentCoding> = []
    var refused: Set<ContentCoding> = []
    var wildcard = false
    for item in header.split(separator: ",") {
      let parts = item.split(separator: ";").map { String($0).trimmingOWS() }
      guard let name = parts.first?.lowercased() else { continue }
      let refusedHere = parts.dropFirst().contains { parameter in
        let pair = parameter.split(separator: "=", maxSplits: 1).map { String($0).trimmingOWS() }
        return pair.count == 2 && pair[0].lowercased() == "q" && (Double(pair[1]) ?? 1) == 0
      }
      let coding: ContentCoding? = name == "br" ? .br : name == "gzip" || name == "x-gzip" ? .gzip : nil
      if name == "*" {
        wildcard = !refusedHere
      } else if let coding {
        if refusedHere { refused.insert(coding) } else { accepted.insert(coding) }
      }
    }
    if wildcard { accepted.formUnion(Set(precompressed).subtracting(refused)) }
    return accepted
  }
}
