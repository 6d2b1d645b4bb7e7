// libFuzzer entry point for every header and number parser a client reaches. Built by
// scripts/fuzz.sh together with the parsers' source files as one module:
// Sources/Library/Uploads/ChunkRange.swift (Content-Range, ?offset=),
// Sources/MarqueeServer/Media/ByteRangeRequest.swift (Range),
// Sources/MarqueeServer/HTTP/CanonicalPath.swift (the request path),
// Sources/MarqueeServer/HTTP/HeaderValues.swift (Cookie, Authorization, Host and Origin).
//
// The first byte of the input chooses a file size for Range; the rest is the header text,
// given to every parser. Properties checked:
// - nothing traps, whatever the numbers (Int64 edges, signs, huge digit runs);
// - an accepted Content-Range is ordered, within the largest position, and its byte count
//   and its check against any offset and length are computed without overflow;
// - a partial Range lies inside the file;
// - a canonical path starts with "/", has no empty, "." or ".." segment, no control byte,
//   and is its own canonical path.
@_cdecl("LLVMFuzzerTestOneInput")
public func headerParsersFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let sizes = [0, 1, 2, 100, 1 << 20, Int.max - 1, Int.max]
    let fileSize = sizes[Int(bytes[0]) % sizes.count]
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)

    // Content-Range and ?offset= (an upload's chunk).
    if let range = try? ChunkRange.parse(contentRange: text) {
        precondition(range.start >= 0 && range.end! >= range.start && range.end! <= ChunkRange.maximumPosition, "unordered range \(range)")
        precondition(range.count! >= 1, "a range of no bytes")
        for length in [nil, range.total, Int64(0), range.end, ChunkRange.maximumPosition, Int64.max] as [Int64?] {
            _ = try? range.check(received: range.start, declaredLength: length)
            _ = try? range.check(received: 0, declaredLength: length)
        }
    }
    if let offset = ChunkRange.position(Substring(text)) {
        _ = try? ChunkRange(start: offset).check(received: offset, declaredLength: nil)
        _ = try? ChunkRange(start: offset).check(received: offset, declaredLength: .max)
    }

    // Range (a media or web file).
    if case .partial(let served) = ByteRangeRequest(header: text, size: fileSize) {
        precondition(served.lowerBound >= 0 && served.upperBound < fileSize, "a range outside the file: \(served) of \(fileSize)")
    }
    _ = ByteRangeRequest(header: "bytes=" + text, size: fileSize)

    // The path.
    if let path = try? CanonicalPath(text) {
        let canonical = path.text
        precondition(canonical.hasPrefix("/"), "not absolute: \(canonical)")
        precondition(canonical == "/" || !canonical.hasSuffix("/"), "trailing slash: \(canonical)")
        precondition(!canonical.contains("//") && !canonical.contains("/./") && !canonical.contains("/../"), "a segment left: \(canonical)")
        precondition(!canonical.hasSuffix("/.") && !canonical.hasSuffix("/.."), "a dot segment left: \(canonical)")
        precondition(canonical.utf8.allSatisfy { $0 >= 0x21 && $0 < 0x7F }, "a byte that is not bare: \(canonical)")
        precondition((try? CanonicalPath(canonical))?.text == canonical, "not its own canonical path: \(canonical)")
    }

    // Cookie, Authorization, Host.
    _ = HeaderValues.cookie(named: "marquee_session", in: text)
    if case .bearer(let token) = HeaderValues.authorization(text) { precondition(!token.isEmpty, "an empty bearer token") }
    _ = HeaderValues.hostName(ofAuthority: Substring(text))
    return 0
}
