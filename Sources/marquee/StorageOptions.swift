import ArgumentParser
import Foundation
import Library
import LibraryObjectStorage
import PostgreSQLStores

/// `--database`, `--media` and `--config`: where a server node or a worker keeps the
/// library's rows and its packaged media. Given nothing, SQLite and a folder in the data
/// directory, exactly as before.
struct StorageOptions: ParsableArguments {
    @Option(
        help:
            "Where the library's rows are: sqlite:PATH (default: library.sqlite in the data directory) or postgres://user[:password]@host:port/database[?sslmode=disable|prefer|require] (also MARQUEE_DATABASE; password also PGPASSWORD)."
    )
    var database: String?

    @Option(
        help:
            "Where packaged media is: a folder (default: media/ in the data directory) or s3://bucket/prefix, with AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY from the environment (also MARQUEE_MEDIA)."
    )
    var media: String?

    @Option(
        name: .customLong("config"),
        help: "A JSON file with \"database\", \"media\", \"s3Endpoint\" and \"s3Region\" (also MARQUEE_CONFIG); options and the environment win over it.")
    var configFile: String?

    @Option(
        name: .customLong("media-delivery"),
        help:
            "How clients get media kept in a bucket: proxy (streamed through the server, the default), presigned[:SECONDS] (redirect to a presigned URL) or cdn:https://… (redirect to that base URL + the key under the --media prefix) (also MARQUEE_MEDIA_DELIVERY, or \"mediaDelivery\" in the config file)."
    )
    var mediaDelivery: String?

    @Option(
        name: .customLong("media-cache-mib"),
        help:
            "With media in a bucket: how many MiB of recently served segments a server node keeps in memory, so a segment many people fetch leaves the bucket once (default 256; 0 keeps none). Each is used only while its asset's bundle is unchanged."
    )
    var mediaCacheMiB: Int = 256

    func validate() throws {
        guard (0...65_536).contains(mediaCacheMiB) else { throw ValidationError("--media-cache-mib must be between 0 and 65536") }
    }

    /// Where packaged media is published for this configuration: the media folder, or the
    /// bucket (with local staging and playlist copies under `object-storage/` in the data directory).
    func mediaStore(for configuration: StorageConfiguration, location: LibraryLocation) async throws -> any MediaStore {
        switch configuration.media {
        case .folder:
            return FolderMediaStore(location: location)
        case .s3(let bucket):
            let delivery: MediaDelivery
            do { delivery = try MediaDelivery.resolve(option: mediaDelivery, configFile: configFile) } catch let error as ConfigurationError {
                throw ValidationError(error.description)
            }
            let store = S3MediaStore(
                location: bucket, delivery: delivery, workDirectory: location.dataDirectory.appendingPathComponent("object-storage"),
                hotFileBytes: mediaCacheMiB << 20)
            do { try await store.checkAccess() } catch { throw CommandFailure(.unavailable, String(describing: error)) }
            return store
        }
    }

    /// The configuration for a data directory, or a usage error naming the bad value.
    func resolve(dataDirectory: URL) throws -> StorageConfiguration {
        do {
            return try StorageConfiguration.resolve(
                database: database, media: media, configFile: configFile,
                location: LibraryLocation(dataDirectory: dataDirectory))
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }

    /// The data directory's location with the configured media folder, and the store the
    /// configuration names, opened (and migrated).
    func open(dataDirectory: URL) async throws -> (LibraryLocation, any LibraryStore, StorageConfiguration) {
        let configuration = try resolve(dataDirectory: dataDirectory)
        let location: LibraryLocation
        switch configuration.media {
        case .folder(let folder):
            location = LibraryLocation(dataDirectory: dataDirectory, mediaDirectory: folder)
        case .s3:
            // Packaging happens in a local staging folder; `mediaStore(for:location:)` publishes to the bucket.
            location = LibraryLocation(dataDirectory: dataDirectory)
        }
        let store: any LibraryStore
        switch configuration.database {
        case .sqlite(let url):
            // A file a newer version migrated is refused before anything opens it (NewerSchemaError).
            try NodeSchema.refuseNewerSQLite(library: url, accounts: location.accountsDatabaseURL)
            store = try SQLiteLibraryStore(url: url)
        case .postgres(let info):
            store = try await PostgreSQLLibraryStore.open(info)
        }
        return (location, store, configuration)
    }
}
