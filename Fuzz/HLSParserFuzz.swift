// libFuzzer entry point for the playlist parser. Built by scripts/fuzz.sh together with the
// HLS sources as one module, so it can reach the byte-level entry point.
//
// Properties checked on every input, in both modes:
// - the parser returns (no crash, no hang, no unbounded allocation);
// - a playlist without errors, written and parsed again, is equal to itself.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func hlsParserFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    for mode in [ParseOptions.Mode.lenient, .strict] {
        let options = ParseOptions(mode: mode, url: URL(string: "https://example.com/a/b.m3u8?x=1"),
                                   importedVariables: ["v": "1"], maximumLineLength: 1 << 16, maximumExpansion: 1 << 16)
        let result = PlaylistParser.parse(bytes: bytes, options: options)
        guard result.errors.isEmpty, let playlist = result.playlist else { continue }
        // A multivariant playlist with nothing in it is indistinguishable from an empty
        // media playlist once written; that is the one shape that cannot round-trip.
        if let m = playlist.multivariant, m.variants.isEmpty, m.renditions.isEmpty, m.iFrameVariants.isEmpty,
           m.imageVariants.isEmpty, m.sessionData.isEmpty, m.sessionKeys.isEmpty, m.contentSteering == nil { continue }
        let text = PlaylistWriter.write(playlist)
        let again = PlaylistParser.parse(text, options: options)
        if again.playlist != playlist {
            FileHandle.standardError.write(Data("round trip changed the playlist:\n---input\n\(String(decoding: bytes, as: UTF8.self))\n---written\n\(text)\n---errors \(again.errors)\n---first \(playlist)\n---again \(String(describing: again.playlist))\n".utf8))
            abort()
        }
    }
    return 0
}
