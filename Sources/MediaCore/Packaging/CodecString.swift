import CFFmpeg

/// RFC 6381 codec strings (`avc1.64001f`, `hvc1.2.4.L93.B0`, `mp4a.40.2`, `ac-3`, `ec-3`) for
/// the HLS `CODECS` attribute, read from the decoder configuration of a written stream.
enum CodecString {
    static func of(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> String? {
        let p = parameters.pointee
        let extradata = p.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(p.extradata_size))) } ?? []
        switch p.codec_id {
        case AV_CODEC_ID_H264:
            if extradata.count >= 4, extradata[0] == 1 {
                return "avc1." + extradata[1...3].map { hex($0) }.joined()
            }
            // Annex B: find the SPS NAL unit (type 7).
            if let sps = annexBSPS(extradata) { return "avc1." + sps.map { hex($0) }.joined() }
            guard p.profile > 0, p.level > 0 else { return nil }
            return "avc1." + hex(UInt8(p.profile & 0xFF)) + "00" + hex(UInt8(p.level & 0xFF))
        case AV_CODEC_ID_HEVC:
            guard extradata.count >= 13, extradata[0] == 1 else { return nil }
            let profileSpace = ["", "A", "B", "C"][Int(extradata[1] >> 6)]
            let tier = (extradata[1] >> 5) & 1 == 1 ? "H" : "L"
            let profile = Int(extradata[1] & 0x1F)
            var compatibility = UInt32(extradata[2]) << 24 | UInt32(extradata[3]) << 16 | UInt32(extradata[4]) << 8 | UInt32(extradata[5])
            var reversed: UInt32 = 0
            for _ in 0..<32 {
                reversed = (reversed << 1) | (compatibility & 1)
                compatibility >>= 1
            }
            let level = Int(extradata[12])
            var constraints = Array(extradata[6...11])
            while constraints.last == 0 { constraints.removeLast() }
            var text = "hvc1.\(profileSpace)\(profile).\(String(reversed, radix: 16, uppercase: true)).\(tier)\(level)"
            for byte in constraints { text += "." + String(byte, radix: 16, uppercase: true) }
            return text
        case AV_CODEC_ID_AAC:
            let objectType = extradata.first.map { Int($0 >> 3) } ?? Int(p.profile + 1)
            return "mp4a.40.\(objectType > 0 ? objectType : 2)"
        case AV_CODEC_ID_AC3: return "ac-3"
        case AV_CODEC_ID_EAC3: return "ec-3"
        case AV_CODEC_ID_MP3: return "mp4a.40.34"
        default: return nil
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }

    private static func annexBSPS(_ bytes: [UInt8]) -> [UInt8]? {
        var index = 0
        while index + 4 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                if bytes[index + 3] & 0x1F == 7, index + 6 < bytes.count {
                    return Array(bytes[(index + 4)...(index + 6)])
                }
                index += 3
            } else {
                index += 1
            }
        }
        return nil
    }
}
