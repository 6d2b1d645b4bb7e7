import Foundation

/// What an RFC 6381 codec string (`avc1.640028`, `hvc1.2.4.L153.B0`, `dvh1.08.07`,
/// `av01.0.13M.10.0.112.09.16.09.0`, `mp4a.40.2`, `ec-3`, …) says: the codec family, the
/// kind of media, profile, level, bit depth and, where the string carries it, the transfer
/// function (PQ / HLG).
public struct CodecDescription: Sendable, Hashable {
    public enum Family: String, Sendable, Hashable, Codable {
        case avc = "AVC", hevc = "HEVC", dolbyVision = "Dolby Vision", av1 = "AV1", vp9 = "VP9"
        case aac = "AAC", mp3 = "MP3", ac3 = "AC-3", eac3 = "E-AC-3", ac4 = "AC-4", alac = "ALAC", flac = "FLAC", opus = "Opus"
        case webVTT = "WebVTT", ttml = "TTML", jpeg = "JPEG", unknown = "unknown"
    }

    public enum Kind: String, Sendable, Hashable, Codable { case video, audio, text, image, unknown }

    /// The string as written.
    public var string: String
    /// The sample entry four-character code (`avc1`, `hvc1`, `dvh1`, `mp4a`, `ec-3`, …).
    public var fourCC: String
    public var family: Family
    public var kind: Kind
    /// Profile name where known (`High`, `Main 10`, `AAC-LC`), else the number as written.
    public var profile: String?
    public var level: String?
    public var tier: String?
    public var bitDepth: Int?
    /// Transfer characteristics when the string carries them (AV1, VP9): PQ or HLG.
    public var transfer: VideoRange?
    /// Dolby Vision cross-compatibility brand after a '/' (`db1p` HDR10, `db2g` SDR, `db4h` HLG).
    public var compatibilityBrand: String?

    public init(_ string: String) {
        self.string = string
        let full = string.trimmingCharacters(in: .whitespaces)
        let brandSplit = full.split(separator: "/", maxSplits: 1)
        compatibilityBrand = brandSplit.count == 2 ? String(brandSplit[1]) : nil
        let parts = (brandSplit.first.map(String.init) ?? "").split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        fourCC = parts.first ?? ""
        family = .unknown
        kind = .unknown
        switch fourCC.lowercased() {
        case "avc1", "avc3": decodeAVC(parts)
        case "hvc1", "hev1": decodeHEVC(parts)
        case "dvh1", "dvhe", "dvav", "dva1", "dav1": decodeDolbyVision(parts)
        case "av01": decodeAV1(parts)
        case "vp09": decodeVP9(parts)
        case "mp4a": decodeMP4A(parts)
        case "ac-3":
            family = .ac3
            kind = .audio
        case "ec-3":
            family = .eac3
            kind = .audio
        case "ac-4":
            family = .ac4
            kind = .audio
            if parts.count > 1 { profile = "bitstream \(Int(parts[1]) ?? 0)" }
            if parts.count > 3 { level = parts[3] }
        case "alac":
            family = .alac
            kind = .audio
        case "flac":
            family = .flac
            kind = .audio
        case "opus":
            family = .opus
            kind = .audio
        case "mp3", ".mp3":
            family = .mp3
            kind = .audio
        case "wvtt":
            family = .webVTT
            kind = .text
        case "stpp":
            family = .ttml
            kind = .text
        case "jpeg", "jpg":
            family = .jpeg
            kind = .image
        default: break
        }
    }

    public var isDolbyVision: Bool { family == .dolbyVision }
    public var isLossless: Bool { family == .alac || family == .flac }

    private mutating func decodeAVC(_ p: [String]) {
        family = .avc
        kind = .video
        bitDepth = 8
        guard p.count > 1, p[1].count == 6, let v = UInt32(p[1], radix: 16) else { return }
        let profileIDC = Int(v >> 16)
        let levelIDC = Int(v & 0xFF)
        profile =
            switch profileIDC {
            case 66: "Baseline"
            case 77: "Main"
            case 88: "Extended"
            case 100: "High"
            case 110: "High 10"
            case 122: "High 4:2:2"
            case 244: "High 4:4:4 Predictive"
            default: "\(profileIDC)"
            }
        if [110, 122, 244].contains(profileIDC) { bitDepth = 10 }
        level = levelIDC % 10 == 0 ? "\(levelIDC / 10)" : "\(levelIDC / 10).\(levelIDC % 10)"
    }

    private mutating func decodeHEVC(_ p: [String]) {
        family = .hevc
        kind = .video
        guard p.count > 1 else { return }
        let profileText = p[1].drop { "ABCabc".contains($0) }
        if let idc = Int(profileText) {
            profile =
                switch idc {
                case 1: "Main"
                case 2: "Main 10"
                case 3: "Main Still Picture"
                case 4: "Range Extensions"
                default: "\(idc)"
                }
            bitDepth = idc == 2 ? 10 : (idc == 1 ? 8 : nil)
        }
        if p.count > 3, let t = p[3].first, "LH".contains(t), let idc = Int(p[3].dropFirst()) {
            tier = t == "L" ? "Main" : "High"
            let major = idc / 30
            let minor = (idc % 30) / 3
            level = minor == 0 ? "\(major)" : "\(major).\(minor)"
        }
    }

    private mutating func decodeDolbyVision(_ p: [String]) {
        family = .dolbyVision
        kind = .video
        guard p.count > 1, let prof = Int(p[1]) else { return }
        profile = "\(prof)"
        bitDepth = prof == 9 ? 8 : 10
        if p.count > 2, let lvl = Int(p[2]) { level = "\(lvl)" }
        switch compatibilityBrand {
        case "db1p": transfer = .pq
        case "db4h": transfer = .hlg
        case "db2g": transfer = .sdr
        default: if [5, 8].contains(prof) && compatibilityBrand == nil { transfer = .pq }
        }
    }

    private mutating func decodeAV1(_ p: [String]) {
        family = .av1
        kind = .video
        if p.count > 1, let prof = Int(p[1]) {
            profile =
                switch prof {
                case 0: "Main"
                case 1: "High"
                case 2: "Professional"
                default: "\(prof)"
                }
        }
        if p.count > 2, p[2].count >= 3, let idx = Int(p[2].prefix(2)) {
            level = "\(2 + idx / 4).\(idx % 4)"
            tier = p[2].hasSuffix("H") ? "High" : "Main"
        }
        if p.count > 3, let depth = Int(p[3]) { bitDepth = depth }
        if p.count > 7, let tc = Int(p[7]) { transfer = Self.transfer(tc) }
    }

    private mutating func decodeVP9(_ p: [String]) {
        family = .vp9
        kind = .video
        if p.count > 1, let prof = Int(p[1]) { profile = "\(prof)" }
        if p.count > 2, let lvl = Int(p[2]) { level = lvl % 10 == 0 ? "\(lvl / 10)" : "\(lvl / 10).\(lvl % 10)" }
        if p.count > 3, let depth = Int(p[3]) { bitDepth = depth }
        if p.count > 6, let tc = Int(p[6]) { transfer = Self.transfer(tc) }
    }

    private mutating func decodeMP4A(_ p: [String]) {
        kind = .audio
        guard p.count > 1 else {
            family = .aac
            return
        }
        switch p[1].lowercased() {
        case "40":
            family = .aac
            let ot = p.count > 2 ? Int(p[2]) : nil
            profile =
                switch ot {
                case 2: "AAC-LC"
                case 5: "HE-AAC"
                case 29: "HE-AACv2"
                case 34: nil
                case let x?: "object type \(x)"
                case nil: nil
                }
            if ot == 34 { family = .mp3 }
        case "69", "6b": family = .mp3
        case "a5": family = .ac3
        case "a6": family = .eac3
        default: family = .aac
        }
    }

    static func transfer(_ tc: Int) -> VideoRange? {
        switch tc {
        case 16: .pq
        case 18: .hlg
        case 1, 6, 14, 15: .sdr
        default: nil
        }
    }
}
