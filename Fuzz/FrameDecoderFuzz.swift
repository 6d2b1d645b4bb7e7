// libFuzzer entry point for the device-link frame decoder. Built by scripts/fuzz.sh together
// with Sources/DeviceLink/Framing as one module.
//
// The first byte of the input chooses the read size (1…256 bytes, so frames arrive split
// and merged at every boundary), the second a maximum payload; the rest is the byte stream.
// Properties checked:
// - nothing traps, whatever the header says (lengths up to 4 GiB, any version);
// - reading in pieces gives exactly the frames (and the error) of reading it all at once;
// - the frames, encoded again, are the bytes they came from;
// - no frame is larger than the maximum, and an error is sticky.
@_cdecl("LLVMFuzzerTestOneInput")
public func frameDecoderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let step = Int(bytes[0]) + 1
    let maximum = [0, 1, 16, 1024, Frame.defaultMaximumPayload][Int(bytes[1]) % 5]
    let stream = Array(bytes[2...])

    func decode(pieces: Int) -> ([Frame], FrameError?) {
        var decoder = FrameDecoder(maximumPayload: maximum)
        var frames: [Frame] = []
        var offset = 0
        while offset < stream.count {
            decoder.append(stream[offset..<min(offset + pieces, stream.count)])
            offset += pieces
            do {
                while let frame = try decoder.next() { frames.append(frame) }
            } catch {
                // An error must repeat on the next call.
                do { _ = try decoder.next(); fatalError("frame error was not sticky") } catch let again {
                    precondition(again == error, "a different error the second time")
                }
                return (frames, error)
            }
        }
        return (frames, nil)
    }

    let (whole, wholeError) = decode(pieces: max(stream.count, 1))
    let (split, splitError) = decode(pieces: step)
    precondition(whole == split, "frames differ when read in pieces of \(step)")
    precondition(wholeError == splitError, "errors differ when read in pieces of \(step)")
    let reencoded = whole.flatMap(\.encoded)
    precondition(Array(stream.prefix(reencoded.count)) == reencoded, "frames do not re-encode to their bytes")
    precondition(whole.allSatisfy { $0.payload.count <= maximum }, "a frame over the maximum was accepted")
    return 0
}
