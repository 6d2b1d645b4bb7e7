import Foundation
import Testing

@testable import Library

@Suite("Storage configuration")
struct StorageConfigurationTests {
    let location = LibraryLocation(dataDirectory: URL(fileURLWithPath: "/srv/marquee"))
    let aws = [
        "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "eu-west-1",
        "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:8333",
    ]

    @Test func givenNothingItIsSQLiteAndAFolderInTheDataDirectory() throws {
        let configuration = try StorageConfiguration.resolve(database: nil, media: nil, configFile: nil, location: location, environment: [:])
        #expect(configuration.database == .sqlite(URL(fileURLWithPath: "/srv/marquee/library.sqlite")))
        #expect(configuration.media == .folder(URL(fileURLWithPath: "/srv/marquee/media")))
        #expect(configuration.isEmbeddedDefault(for: location))
    }

    @Test func postgresURLsCarryTheirPartsAndNeverPrintThePassword() throws {
        let parsed = try DatabaseLocation(parsing: "postgres://app:p%40ss@db.internal:6543/marquee?sslmode=require", environment: [:])
        guard case .postgres(let info) = parsed else {
            Issue.record("not postgres: \(parsed)")
            return
        }
        #expect(info.host == "db.internal" && info.port == 6543 && info.user == "app" && info.password == "p@ss")
        #expect(info.database == "marquee" && info.tls == .require)
        #expect(parsed.description == "postgres://app@db.internal:6543/marquee")
        let socket = try DatabaseLocation(parsing: "postgresql:///marquee?host=/run/postgresql&user=me", environment: ["PGPASSWORD": "pw"])
        guard case .postgres(let local) = socket else {
            Issue.record("not postgres")
            return
        }
        #expect(local.socketDirectory == "/run/postgresql" && local.user == "me" && local.password == "pw")
        #expect(try DatabaseLocation(parsing: "sqlite:/tmp/x.sqlite") == .sqlite(URL(fileURLWithPath: "/tmp/x.sqlite")))
    }

    @Test(arguments: ["mysql://x@y/z", "postgres://u@h:5432/", "postgres://u@h/db?sslmode=maybe", "sqlite:", ""])
    func badDatabasesAreRefusedWithTheReason(text: String) {
        #expect(throws: ConfigurationError.self) { try DatabaseLocation(parsing: text, environment: ["USER": "me"]) }
    }

    @Test func bucketsTakeEndpointRegionAndCredentialsFromTheEnvironment() throws {
        let media = try MediaLocation(parsing: "s3://marquee-media/tenant-a/", environment: aws)
        guard case .s3(let s3) = media else {
            Issue.record("not s3")
            return
        }
        #expect(s3.bucket == "marquee-media" && s3.prefix == "tenant-a" && s3.region == "eu-west-1")
        #expect(s3.endpoint?.absoluteString == "http://127.0.0.1:8333")
        #expect(s3.key("abc/master.m3u8") == "tenant-a/abc/master.m3u8")
        #expect(!media.description.contains("secret") && !media.description.contains("AKID"))
        #expect(throws: ConfigurationError.self) { try MediaLocation(parsing: "s3://marquee-media", environment: [:]) }
        #expect(throws: ConfigurationError.self) { try MediaLocation(parsing: "s3://Bad_Bucket/x", environment: aws) }
    }

    @Test func optionsWinOverTheEnvironmentWhichWinsOverTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("marquee.json")
        try Data(
            #"{"database": "postgres://file@db/file", "media": "s3://from-file", "s3Endpoint": "http://127.0.0.1:9000", "s3Region": "ap-northeast-1"}"#.utf8
        ).write(to: file)
        var environment = ["AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"]
        var configuration = try StorageConfiguration.resolve(database: nil, media: nil, configFile: file.path, location: location, environment: environment)
        #expect(configuration.database.description == "postgres://file@db:5432/file")
        guard case .s3(let s3) = configuration.media else {
            Issue.record("not s3")
            return
        }
        #expect(s3.bucket == "from-file" && s3.region == "ap-northeast-1" && s3.endpoint?.port == 9000)

        environment["MARQUEE_DATABASE"] = "postgres://env@db/env"
        environment["MARQUEE_CONFIG"] = file.path
        configuration = try StorageConfiguration.resolve(database: nil, media: "/data/media", configFile: nil, location: location, environment: environment)
        #expect(configuration.database.description == "postgres://env@db:5432/env")
        #expect(configuration.media == .folder(URL(fileURLWithPath: "/data/media")))

        configuration = try StorageConfiguration.resolve(
            database: "sqlite:/x.sqlite", media: nil, configFile: nil, location: location, environment: environment)
        #expect(configuration.database == .sqlite(URL(fileURLWithPath: "/x.sqlite")))

        try Data("database = 1".utf8).write(to: file)
        #expect(throws: ConfigurationError.self) {
            try StorageConfiguration.resolve(database: nil, media: nil, configFile: file.path, location: location, environment: [:])
        }
        #expect(throws: ConfigurationError.unreadableFile("/no/such.json", "no such file")) {
            try StorageConfiguration.resolve(database: nil, media: nil, configFile: "/no/such.json", location: location, environment: [:])
        }
    }
}
