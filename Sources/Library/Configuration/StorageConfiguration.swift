public import Foundation

/// Where a server node or a worker keeps the library's rows and its media, from the command
/// line, the environment and a configuration file, in that order of precedence.
///
/// With nothing given, the rows are SQLite (`library.sqlite`) and the media a folder
/// (`media/`), both in the data directory: the single-machine default. A JSON configuration
/// file (`--config FILE` or `MARQUEE_CONFIG`) may hold
/// `{"database": "postgres://…", "media": "s3://bucket/prefix", "s3Endpoint": "http://…", "s3Region": "…"}`;
/// the environment's `MARQUEE_DATABASE` and `MARQUEE_MEDIA` win over the file, the options
/// over both. Credentials stay in the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
/// `PGPASSWORD`), or in the URL for PostgreSQL.
public struct StorageConfiguration: Sendable, Hashable {
    /// Where the library's rows are.
    public var database: DatabaseLocation
    /// Where its packaged media is.
    public var media: MediaLocation

    /// A configuration of the two, as resolved.
    public init(database: DatabaseLocation, media: MediaLocation) {
        self.database = database
        self.media = media
    }

    /// The file's keys.
    struct File: Codable {
        var database: String?
        var media: String?
        var s3Endpoint: String?
        var s3Region: String?
    }

    /// Resolves the configuration for a data directory.
    /// - Parameters:
    ///   - database: `--database`, if given.
    ///   - media: `--media`, if given.
    ///   - configFile: `--config`, if given (else `MARQUEE_CONFIG`).
    public static func resolve(
        database: String?, media: String?, configFile: String?, location: LibraryLocation,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> StorageConfiguration {
        var environment = environment
        var file = File()
        if let path = configFile ?? environment["MARQUEE_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) {
            let data: Data
            guard FileManager.default.fileExists(atPath: path) else { throw ConfigurationError.unreadableFile(path, "no such file") }
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw ConfigurationError.unreadableFile(path, (error as NSError).localizedDescription)
            }
            do { file = try JSONDecoder().decode(File.self, from: data) } catch {
                throw ConfigurationError.unreadableFile(path, "not a JSON object with database, media, s3Endpoint and s3Region strings (\(error))")
            }
            // The file fills in what the environment leaves unset.
            if let endpoint = file.s3Endpoint, environment["AWS_ENDPOINT_URL_S3"] == nil, environment["AWS_ENDPOINT_URL"] == nil {
                environment["AWS_ENDPOINT_URL_S3"] = endpoint
            }
            if let region = file.s3Region, environment["AWS_REGION"] == nil { environment["AWS_REGION"] = region }
        }
        let databaseText = database ?? environment["MARQUEE_DATABASE"].flatMap { $0.isEmpty ? nil : $0 } ?? file.database
        let mediaText = media ?? environment["MARQUEE_MEDIA"].flatMap { $0.isEmpty ? nil : $0 } ?? file.media
        return StorageConfiguration(
            database: try databaseText.map { try DatabaseLocation(parsing: $0, environment: environment) } ?? .sqlite(location.databaseURL),
            media: try mediaText.map { try MediaLocation(parsing: $0, environment: environment) } ?? .folder(location.mediaDirectory))
    }

    /// Whether this is the single-machine default for `location` (SQLite and the media folder inside it).
    public func isEmbeddedDefault(for location: LibraryLocation) -> Bool {
        self == StorageConfiguration(database: .sqlite(location.databaseURL), media: .folder(location.mediaDirectory))
    }
}
