import Foundation
import MediaCore

/// Why an ingest job failed, in words a person understands and without server paths; the
/// full error (FFmpeg's message, the path) goes to the server's log instead.
public struct IngestFailure: Sendable, Hashable {
    /// A stable code the web page translates; `message` is the English sentence.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        case sourceMissing, notMedia, unsafeBundle, unreadable, packagingFailed, packagerCrashed, interrupted, toolFailed, noSpace, unknown
    }

    public var reason: Reason
    public var message: String

    /// Whether preparing the same source again can succeed: not when the file itself is the
    /// problem (not media, damaged, crashed the converter, an unsafe bundle), so the library
    /// offers no Retry for those; yes when something around it failed (the disk, the worker,
    /// a tool) or may have changed (the file was put back).
    public static func retryCanHelp(_ reason: Reason) -> Bool {
        switch reason {
        case .notMedia, .unsafeBundle, .unreadable, .packagerCrashed: false
        case .sourceMissing, .packagingFailed, .interrupted, .toolFailed, .noSpace, .unknown: true
        }
    }

    public init(_ error: any Error) {
        switch error {
        case LibraryError.sourceNotFound:
            reason = .sourceMissing
        case LibraryError.unsafeBundle:
            reason = .unsafeBundle
        case LibraryError.unsupportedSource, LibraryError.invalidRequest:
            reason = .notMedia
        case LibraryError.mediaFailed(let step, _, let cause):
            if cause.code == Self.noSpaceCode || Self.isOutOfSpace(cause.message) {
                reason = .noSpace
            } else if step == "read" {
                reason = cause.code == Self.invalidDataCode || Self.looksLikeNotMedia(cause.message) ? .notMedia : .unreadable
            } else {
                reason = .packagingFailed
            }
        case LibraryError.toolFailed(_, _, let detail):
            reason = Self.isOutOfSpace(detail) ? .noSpace : .toolFailed
        case is MediaWorkCrashed:
            reason = .packagerCrashed
        case is IngestInterrupted:
            reason = .interrupted
        case let error as CocoaError where error.code == .fileWriteOutOfSpace:
            reason = .noSpace
        default:
            reason = Self.isOutOfSpace(String(describing: error)) ? .noSpace : .unknown
        }
        message = Self.message(for: reason)
    }

    public static func message(for reason: Reason) -> String {
        switch reason {
        case .sourceMissing: "The original file is no longer there, so it can’t be prepared."
        case .notMedia: "This file isn’t a video or audio file Marquee can play."
        case .unsafeBundle:
            "This HLS bundle can’t be added: it holds a symbolic link, or a playlist names a file outside the bundle’s folder."
        case .unreadable: "This file couldn’t be read. It may be damaged or incomplete."
        case .packagingFailed: "Marquee couldn’t convert this file for streaming."
        case .packagerCrashed:
            "This file made Marquee’s media converter crash, so it can’t be played. Marquee kept running; the file may be damaged."
        case .interrupted:
            "Preparing this item was interrupted too many times (the worker stopped each time). Retry it when the server is steady."
        case .toolFailed: "A program Marquee uses to prepare media stopped with an error."
        case .noSpace: "The server ran out of disk space while preparing this item."
        case .unknown: "Something went wrong while preparing this item."
        }
    }

    /// FFmpeg's `AVERROR_INVALIDDATA` (`FFERRTAG('I','N','D','A')`) and `AVERROR(ENOSPC)`.
    static let invalidDataCode: Int32 = -0x4144_4E49
    static let noSpaceCode: Int32 = -28

    static func isOutOfSpace(_ text: String) -> Bool {
        text.localizedCaseInsensitiveContains("no space left") || text.localizedCaseInsensitiveContains("ENOSPC")
    }

    static func looksLikeNotMedia(_ text: String) -> Bool {
        ["Invalid data found", "could not find codec", "no streams", "unknown format", "Invalid argument"]
            .contains { text.localizedCaseInsensitiveContains($0) }
    }
}

/// A job whose worker stopped under it (killed, restarted) more often than a job may be
/// started: not a media failure, and a retry starts afresh.
public struct IngestInterrupted: Error, Sendable, CustomStringConvertible {
    public var attempts: Int
    public var description: String { "the job was started \(attempts) times and its worker stopped each time" }
}
