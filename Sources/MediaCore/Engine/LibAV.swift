import CFFmpeg
import Foundation

/// Process-wide FFmpeg set-up and small conversions shared by MediaCore's libav* code.
enum LibAV {
    /// Initialises networking and quietens FFmpeg's logging (set MARQUEE_FFMPEG_LOG=1 to see it).
    static let initialized: Bool = {
        avformat_network_init()
        let verbose = ProcessInfo.processInfo.environment["MARQUEE_FFMPEG_LOG"] != nil
        av_log_set_level(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
        return true
    }()

    /// FFmpeg's message for an error code.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func error(_ kind: MediaError.Kind, _ url: String, _ what: String, _ code: Int32) -> MediaError {
        MediaError(kind, url: url, message: "\(what): \(message(code))", code: code)
    }

    static var noPTS: Int64 { cff_nopts_value() }
    static var eagain: Int32 { cff_error_eagain() }
    static var eof: Int32 { cff_error_eof() }
    static var exit: Int32 { cff_error_exit() }

    /// A stream timestamp as media time.
    static func time(_ ts: Int64, _ base: AVRational) -> MediaTime {
        guard ts != noPTS, base.den > 0 else { return .invalid }
        if base.num == 1 { return MediaTime(value: ts, timescale: base.den) }
        let (product, overflow) = ts.multipliedReportingOverflow(by: Int64(base.num))
        if overflow { return MediaTime(seconds: Double(ts) * av_q2d(base)) }
        return MediaTime(value: product, timescale: base.den)
    }

    /// Media time as a timestamp in `base`, rounding to nearest.
    static func timestamp(_ time: MediaTime, _ base: AVRational) -> Int64 {
        switch time.kind {
        case .numeric:
            return av_rescale_q_rnd(
                time.value, AVRational(num: 1, den: time.timescale), base,
                AV_ROUND_NEAR_INF)
        case .negativeInfinity: return Int64.min / 2
        default: return Int64.max / 2
        }
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// All entries of an AVDictionary, in order.
    static func entries(_ dictionary: OpaquePointer?) -> [(key: String, value: String)] {
        var result: [(String, String)] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            result.append((String(cString: next.pointee.key), String(cString: next.pointee.value)))
            entry = next
        }
        return result
    }
}
