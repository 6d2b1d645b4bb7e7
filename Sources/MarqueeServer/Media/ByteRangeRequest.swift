import Foundation

/// A single `Range: bytes=…` request resolved against a file size.
enum ByteRangeRequest: Equatable {
    /// Serve these bytes (inclusive) with 206.
    case partial(ClosedRange<Int>)
    /// The range cannot be served; answer 416 with `Content-Range: bytes */size`.
    case unsatisfiable
    /// No usable range header: serve the whole file.
    case whole

    /// Parses `bytes=first-last`, `bytes=first-` and `bytes=-suffix`. Multiple ranges are
    /// served whole (allowed by RFC 9110), as is any other unit.
    init(header: String?, size: Int) {
        guard let header, header.hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(",") else {
            self = .whole
            return
        }
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            self = .unsatisfiable
            return
        }
        let first = Int(parts[0])
        let last = Int(parts[1])
        switch (parts[0].isEmpty, parts[1].isEmpty) {
        case (true, false):
            guard let suffix = last, suffix > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(max(0, size - suffix)...(size - 1))
        case (false, true):
            guard let first, first >= 0, first < size else {
                self = .unsatisfiable
                return
            }
            self = .partial(first...(size - 1))
        case (false, false):
            guard let first, let last, first >= 0, first <= last, first < size else {
                self = .unsatisfiable
                return
            }
            self = .partial(first...min(last, size - 1))
        case (true, true):
            self = .unsatisfiable
        }
    }
}
