/// Whether a file's name carries a content hash, so that its contents never change under
/// that name: a part of the name (between `.` or `-`, before the extension) of at least 8
/// hexadecimal digits with a letter and a digit among them, as in `app.3f9a1c2e.js` or
/// `chunk-0b7e44d1.css`. A date such as `report-20261201.pdf` is not one.
enum VersionedName {
  static func isVersioned(_ path: String) -> Bool {
    let name = path.split(separator: "/").last ?? ""
    guard let dot = name.lastIndex(of: ".") else { return false }
    return name[..<dot].split(whereSeparator: { $0 == "." || $0 == "-" || $0 == "_" }).contains { part in
      part.count >= 8 && part.allSatisfy(\.isHexDigit) && part.contains(where: \.isNumber)
        && part.contains(where: \.isLetter)
    }
  }
}
