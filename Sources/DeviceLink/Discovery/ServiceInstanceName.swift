/// DNS-SD service instance names: at most 63 bytes of UTF-8 (one DNS label), and the
/// "Name (2)" renaming mDNS responders use when a name is taken.
public enum ServiceInstanceName {
    /// The longest instance name DNS-SD accepts, in bytes of UTF-8.
    public static let maximumBytes = 63
    /// How many names are tried ("Name", "Name (2)", … "Name (20)") before giving up.
    public static let mostAttempts = 20

    /// `name` shortened to at most `limit` bytes of UTF-8 without splitting a character
    /// (an extended grapheme cluster: an accented letter or an emoji stays whole).
    public static func truncated(_ name: String, toBytes limit: Int = maximumBytes) -> String {
        guard name.utf8.count > limit else { return name }
        var result = ""
        var bytes = 0
        for character in name {
            let size = String(character).utf8.count
            if bytes + size > limit { break }
            result.append(character)
            bytes += size
        }
        // A name cut after a space would end in one.
        while result.last?.isWhitespace == true { result.removeLast() }
        return result
    }

    /// The name to try on attempt `attempt` (1 is the name itself, shortened to fit; 2 on
    /// add " (2)" and so on, shortening the name so that the whole still fits).
    public static func candidate(_ name: String, attempt: Int) -> String {
        guard attempt > 1 else { return truncated(name) }
        let suffix = " (\(attempt))"
        return truncated(name, toBytes: maximumBytes - suffix.utf8.count) + suffix
    }
}
