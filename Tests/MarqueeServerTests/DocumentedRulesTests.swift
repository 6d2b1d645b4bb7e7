import DeviceLink
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Accounts
@testable import Library
@testable import MarqueeServer

/// Each rule `openapi.json` states about a request (a `pattern`, a length, an enum) is the
/// rule the server checks, written once: the document's text is compared with the server's
/// constant here, and the server checks requests with that constant (issue 24: schemathesis
/// with every check, where a request the document allows must be accepted and one it forbids
/// refused).
@Suite("openapi.json states the server's own request rules")
struct DocumentedRulesTests {
    static func document() throws -> [String: Any] {
        let url = MarqueeServer.bundledWebRoot(environment: [:]).appendingPathComponent("openapi.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The JSON request body schema's properties of `method path`.
    static func bodyProperties(_ document: [String: Any], _ path: String, _ method: String) throws -> [String: [String: Any]] {
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let operation = try #require(paths[path]?[method] as? [String: Any])
        let body = try #require(operation["requestBody"] as? [String: Any])
        let content = try #require(body["content"] as? [String: Any])
        let json = try #require(content["application/json"] as? [String: Any])
        let schema = try #require(json["schema"] as? [String: Any])
        return try #require(schema["properties"] as? [String: [String: Any]])
    }

    /// Every schema in `value` whose `format` is `date-time`.
    static func dateTimes(in value: Any) -> [[String: Any]] {
        if let object = value as? [String: Any] {
            let own = object["format"] as? String == "date-time" ? [object] : []
            return own + object.values.flatMap(dateTimes(in:))
        }
        if let array = value as? [Any] { return array.flatMap(dateTimes(in:)) }
        return []
    }

    @Test("Every date-time in the document has the server's exact pattern")
    func dateTimePattern() throws {
        let found = Self.dateTimes(in: try Self.document())
        #expect(found.count > 20)
        for schema in found {
            #expect(schema["pattern"] as? String == StrictDate.pattern, "\(schema)")
        }
    }

    @Test("The server reads a date-time exactly when the pattern matches, to the same instant")
    func dateTimesFollowThePattern() throws {
        // Nine digits of a fraction and lower-case t and z are date-times; ten digits are not.
        let good = [
            "2026-05-01T20:00:00Z", "2026-05-01t20:00:00z", "2026-05-01T20:00:00.123456789Z", "2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z",
            "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.5-23:59",
        ]
        let bad = [
            "", "2026-05-01T20:00:00.1234567890Z", "1900-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "2026-04-31T00:00:00Z",
            "2026-05-01T20:00:00Z\n", " 2026-05-01T20:00:00Z", "2026-05-01T24:00:00Z", "2026-05-01T20:00:00+24:00", "２０２６-05-01T20:00:00Z",
        ]
        let expression = try NSRegularExpression(pattern: StrictDate.pattern)
        for text in good + bad {
            let whole = NSRange(text.startIndex..., in: text)
            let matched = expression.firstMatch(in: text, range: whole)?.range == whole
            #expect(matched == good.contains(text), "\(text)")
            #expect((StrictDate.parse(text) != nil) == good.contains(text), "\(text)")
        }
        #expect(StrictDate.parse("1970-01-01t00:00:10z") == Date(timeIntervalSince1970: 10))
        #expect(StrictDate.parse("2026-05-01T20:00:00.250+09:00") == Date(timeIntervalSince1970: 1_777_633_200.25))
        #expect(StrictDate.parse("2024-02-29T23:59:59-00:30") == Date(timeIntervalSince1970: 1_709_252_999))
        #expect(StrictDate.parse("0001-01-01T00:00:00Z") == Date(timeIntervalSince1970: -62_135_596_800))
    }

    @Test("Metadata dates: the document's patterns are the server's, and it reads exactly what they match")
    func metadataDates() throws {
        let document = try Self.document()
        let components = try #require(document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        let override = try #require(schemas["MetadataOverride"] as? [String: Any])
        let properties = try #require(override["properties"] as? [String: [String: Any]])
        #expect(properties["releaseDate"]?["pattern"] as? String == MetadataDates.releasePattern)
        #expect(properties["liveStartDate"]?["pattern"] as? String == MetadataDates.livePattern)
        #expect(properties["liveEndDate"]?["pattern"] as? String == MetadataDates.livePattern)

        // A year, a date and a date-time are release dates; nothing is trimmed or rolled over.
        for good in ["", "2024", "0000", "2024-02-29", "2024-05-01T20:00:00Z", "2024-05-01t20:00:00.5+09:00"] {
            #expect(try MetadataDates.releaseDate(good) == (good.isEmpty ? nil : good), "\(good)")
        }
        for bad in [" 2024", "2024 ", "24", "+202", "2023-02-29", "2024-13-01", "2024-05-01T20:00:00", "2024-05-01 20:00:00Z", "２０２４"] {
            #expect(throws: APIError.self, "\(bad)") { try MetadataDates.releaseDate(bad) }
        }
        // A live date is a date (midnight UTC) or a date-time, never a bare year.
        #expect(try MetadataDates.liveDate("2024-05-01", field: "liveStartDate") == Date(timeIntervalSince1970: 1_714_521_600))
        #expect(try MetadataDates.liveDate("2024-05-01T01:00:00+01:00", field: "liveStartDate") == Date(timeIntervalSince1970: 1_714_521_600))
        #expect(try MetadataDates.liveDate("", field: "liveStartDate") == nil)
        for bad in ["2024", "2024-05-01T25:00:00Z", "2024-04-31", "2024-05-01T20:00:00"] {
            #expect(throws: APIError.self, "\(bad)") { try MetadataDates.liveDate(bad, field: "liveEndDate") }
        }
    }

    @Test("Lengths are counted as JSON Schema's maxLength counts them: Unicode scalars, not letters with their marks")
    func lengthsCountScalars() throws {
        let document = try Self.document()
        let components = try #require(document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        let group = try #require((schemas["GroupName"] as? [String: Any])?["properties"] as? [String: [String: Any]])
        #expect(group["name"]?["maxLength"] as? Int == TogetherRoutes.NameRequest.maximumLength)
        // "é" written as e + a combining accent is one letter and two scalars: 101 of them are
        // 202 scalars, past a limit of 200 though only 101 letters (schemathesis sent such a name).
        let marked = { (letters: Int) in String(repeating: "e\u{301}", count: letters) }
        #expect(throws: APIError.self) { try TogetherRoutes.NameRequest(name: marked(101)).checked() }
        #expect(try TogetherRoutes.NameRequest(name: marked(100)).checked() == marked(100))
        #expect(try TogetherRoutes.NameRequest(name: nil).checked() == "")
        #expect(throws: LibraryError.self) { try LibrarySearch.normalized(marked(101)) }
        #expect(try LibrarySearch.normalized(marked(100)) == marked(100))
    }

    @Test("Every path parameter states the rule the canonical path applies to every segment")
    func pathParameters() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var count = 0
        for (path, item) in paths {
            let shared = item["parameters"] as? [[String: Any]] ?? []
            for (method, operation) in item where method != "parameters" {
                let own = (operation as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
                for parameter in shared + own where parameter["in"] as? String == "path" {
                    count += 1
                    let schema = parameter["schema"] as? [String: Any]
                    #expect(schema?["pattern"] as? String == CanonicalPath.parameterPattern, "\(method) \(path) \(parameter["name"] ?? "")")
                }
            }
        }
        #expect(count > 50)
    }

    @Test("Account names and passwords: the document's rule is the server's")
    func accountRules() throws {
        let document = try Self.document()
        for (path, method) in [("/api/auth/setup", "post"), ("/api/users", "post")] {
            let properties = try Self.bodyProperties(document, path, method)
            #expect(properties["name"]?["pattern"] as? String == AccountService.namePattern, "\(path)")
            #expect(properties["password"]?["minLength"] as? Int == AccountService.passwordLengths.lowerBound, "\(path)")
            #expect(properties["password"]?["maxLength"] as? Int == AccountService.passwordLengths.upperBound, "\(path)")
        }
        for name in ["a", "Ada.Lovelace@example-1_2", String(repeating: "x", count: 64)] {
            #expect(throws: Never.self, "\(name)") { try AccountService.validate(name: name) }
        }
        // Letters outside A-Z (the old rule took any Unicode letter), spaces, 65 characters.
        for name in ["", "é", "名前", "a b", "a\n", String(repeating: "x", count: 65), "ａ"] {
            #expect(throws: AccountError.self, "\(name)") { try AccountService.validate(name: name) }
        }
        // Lengths count Unicode scalars, as JSON Schema does: 8 scalars in 4 characters are enough.
        #expect(throws: Never.self) { try AccountService.validate(password: "e\u{301}e\u{301}e\u{301}e\u{301}", name: "a") }
        #expect(throws: AccountError.self) { try AccountService.validate(password: "1234567", name: "a") }
        #expect(throws: Never.self) { try AccountService.validate(password: String(repeating: "p", count: 256), name: "a") }
        #expect(throws: AccountError.self) { try AccountService.validate(password: String(repeating: "p", count: 257), name: "a") }
    }

    @Test("Upload file names: the document's rule is the server's")
    func fileNameRules() throws {
        let properties = try Self.bodyProperties(try Self.document(), "/api/uploads", "post")
        #expect(properties["fileName"]?["pattern"] as? String == UploadStore.fileNamePattern)
        #expect(properties["fileName"]?["maxLength"] as? Int == UploadStore.fileNameMaximumLength)
        for name in ["a.mp4", "My Show - S02E05 - Five.mp4", " spaced .mp4", "名前.mkv", "a..b", String(repeating: "x", count: 255)] {
            #expect(try UploadStore.safeFileName(name) == name)
        }
        // A path (the old rule kept its last part), a hidden name, control characters, 256 characters.
        for name in ["", ".", "..", ".hidden", "a/b.mp4", "a\\b.mp4", "a\u{0}b", "a\nb", "a\u{85}b", "a\u{7f}", String(repeating: "x", count: 256)] {
            #expect(throws: UploadError.self, "\(name)") { try UploadStore.safeFileName(name) }
        }
        // A long name fits the file system's 255 bytes on disk, keeping its extension.
        let long = String(repeating: "名", count: 200) + ".mp4"
        #expect(UploadStore.diskName(long).utf8.count <= 255)
        #expect(UploadStore.diskName(long).hasSuffix("名.mp4"))
        #expect(UploadStore.diskName("short.mp4") == "short.mp4")
    }

    @Test("Application services: the document lists the ones the server offers")
    func applicationServices() throws {
        let document = try Self.document()
        let offered = ApplicationServices.marquee.services.map(\.identifier)
        #expect(offered.count >= 2)
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let nearby = try #require((paths["/api/devices/nearby"]?["get"] as? [String: Any])?["parameters"] as? [[String: Any]])
        let service = try #require(nearby.first { $0["name"] as? String == "service" })
        #expect((service["schema"] as? [String: Any])?["enum"] as? [String] == offered)
        let pairing = try Self.bodyProperties(document, "/api/devices/pairings", "post")
        #expect((pairing["service"]?["enum"] as? [Any])?.compactMap { $0 as? String } == offered)
    }

    @Test("set-volume and set-muted work over HTTP (the intent's fields reach the session)")
    func volumeIntents() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let session = try await client.execute(uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(fixture.clipID)"}"#)) {
                response throws in try response.json(SessionSnapshot.self)
            }
            for body in [#"{"intent": "set-volume", "volume": 0.5}"#, #"{"intent": "set-muted", "muted": true}"#] {
                try await client.execute(uri: "/api/sessions/\(session.id)/intents", method: .post, body: .json(body)) { response throws in
                    // Accepted, or refused by the session's rules; never "needs volume".
                    #expect([.ok, .conflict].contains(response.status), "\(body): \(response.text)")
                }
            }
            try await client.execute(uri: "/api/sessions/\(session.id)/intents", method: .post, body: .json(#"{"intent": "set-volume"}"#)) {
                response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("volume"))
            }
            try await client.execute(uri: "/api/sessions/\(session.id)", method: .delete) { _ in }
        }
    }

    @Test("Subtitle languages: the document's rule is the server's")
    func subtitleLanguageRule() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: Any]])
        let operation = try #require(paths["/api/assets/{id}/subtitles"]?["post"] as? [String: Any])
        let parameters = try #require(operation["parameters"] as? [[String: Any]])
        let language = try #require(parameters.first { $0["name"] as? String == "language" }?["schema"] as? [String: Any])
        #expect(language["pattern"] as? String == SubtitleLanguage.pattern)
        #expect(language["maxLength"] as? Int == SubtitleLanguage.maximumTagLength)
        let expression = try NSRegularExpression(pattern: SubtitleLanguage.pattern)
        for tag in ["", "en", "ja", "pt-BR", "pt_br", "zh-Hant-TW", "und", "jpn", " en", "en ", "e", "en--US", "12", "ã", "en-", "english"] {
            let documented = expression.firstMatch(in: tag, range: NSRange(tag.startIndex..., in: tag)) != nil && tag.count <= SubtitleLanguage.maximumTagLength
            let taken = (try? SubtitleLanguage.normalized(tag)) != nil || tag.isEmpty || tag.lowercased() == "und"
            #expect(documented == taken, "\(tag): documented \(documented), taken \(taken)")
        }
    }

    @Test("Addresses the server fetches from: the document's rule is the server's (HTTPAddress)")
    func addressRules() throws {
        let document = try Self.document()
        for path in ["/api/downloads", "/api/downloads/inspect"] {
            let url = try #require(try Self.bodyProperties(document, path, "post")["url"])
            #expect(url["pattern"] as? String == HTTPAddress.pattern, "\(path)")
            #expect(url["maxLength"] as? Int == HTTPAddress.maximumLength, "\(path)")
        }
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        func urlParameter(_ path: String) throws -> [String: Any] {
            let item = try #require(paths[path])
            let parameters = (item["parameters"] as? [[String: Any]] ?? []) + ((item["get"] as? [String: Any])?["parameters"] as? [[String: Any]] ?? [])
            return try #require(parameters.first { $0["name"] as? String == "url" }?["schema"] as? [String: Any])
        }
        #expect(try urlParameter("/api/sessions/{id}/interstitials/{event}/external")["pattern"] as? String == HTTPAddress.pattern)
        #expect(
            try urlParameter("/api/sessions/{id}/interstitials/{event}/manifest")["pattern"] as? String
                == InterstitialExternalRoutes.manifestURLPattern)
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        let content = try #require(
            ((schemas["Interstitial"]?["properties"] as? [String: Any])?["content"] as? [String: Any])?["properties"] as? [String: [String: Any]])
        for field in ["uri", "assetList"] {
            #expect(content[field]?["pattern"] as? String == HTTPAddress.addressOrPathPattern, "\(field)")
            #expect(content[field]?["maxLength"] as? Int == HTTPAddress.maximumLength, "\(field)")
        }
    }

    struct CreatedUpload: Decodable { var id: String }

    @Test("A chunk's Content-Range and offset: the document's rules are the server's; a chunk that names no position starts at byte 0")
    func chunkPositions() async throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: Any]])
        let operation = try #require(paths["/api/uploads/{id}"]?["put"] as? [String: Any])
        let parameters = try #require(operation["parameters"] as? [[String: Any]])
        let schemas = Dictionary(uniqueKeysWithValues: parameters.compactMap { p in (p["name"] as? String).map { ($0, p["schema"] as? [String: Any] ?? [:]) } })
        #expect(schemas["Content-Range"]?["pattern"] as? String == ChunkRange.contentRangePattern)
        #expect(schemas["offset"]?["minimum"] as? Int == 0)
        let expression = try NSRegularExpression(pattern: ChunkRange.contentRangePattern)
        for header in ["bytes 0-9/10", "bytes 0-9/*", "bytes 5-5/6", "bytes 0-9223372036854775805/*"] {
            #expect(expression.firstMatch(in: header, range: NSRange(header.startIndex..., in: header)) != nil, "\(header)")
            #expect(throws: Never.self, "\(header)") { try ChunkRange.parse(contentRange: header) }
        }
        for header in ["bytes -1-9/10", "bytes 0-9", "items 0-9/10", "bytes 0x1-9/10", "bytes 0-99999999999999999999/*"] {
            #expect(expression.firstMatch(in: header, range: NSRange(header.startIndex..., in: header)) == nil, "\(header)")
            #expect(throws: UploadError.self, "\(header)") { try ChunkRange.parse(contentRange: header) }
        }

        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            // An upload that does not exist is a 404 whatever its chunk says.
            try await client.execute(uri: "/api/uploads/nothing-here", method: .put, headers: [.contentRange: "bytes 9-1/2"], body: ByteBuffer(string: "x")) {
                response in
                #expect(response.status == .notFound, "\(response.text)")
            }
            let created = try await client.execute(uri: "/api/uploads", method: .post, body: .json(#"{"fileName": "whole.mp4", "length": 4}"#)) { response in
                try response.json(CreatedUpload.self)
            }
            // No Content-Range and no offset: the body is the file from byte 0.
            try await client.execute(uri: "/api/uploads/\(created.id)", method: .put, body: ByteBuffer(string: "abcd")) { response in
                #expect(response.status == .ok, "\(response.text)")
                #expect(response.headers[UploadHeader.offset] == "4")
            }
            // Again: the upload already holds bytes, so byte 0 is the wrong place (409 with the offset).
            try await client.execute(uri: "/api/uploads/\(created.id)", method: .put, body: ByteBuffer(string: "abcd")) { response in
                #expect(response.status == .conflict, "\(response.text)")
                #expect(response.headers[UploadHeader.offset] == "4")
            }
            try await client.execute(uri: "/api/uploads/\(created.id)", method: .delete) { _ in }
        }
    }

    @Test("An upload longer than the free disk is a 409 (the free space is the server's state, not a documented limit)")
    func uploadLongerThanTheDisk() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            let body = #"{"fileName": "huge.mp4", "length": \#(Int64.max)}"#
            try await client.execute(uri: "/api/uploads", method: .post, body: .json(body)) { response throws in
                #expect(response.status == .conflict, "\(response.text)")
                #expect(try response.json(APIErrorBody.self).error.code == "insufficient-space")
                #expect(response.errorMessage.contains("Not enough disk space"))
            }
        }
    }

    @Test("Adding a path: nothing there is 404, no media there 409, a folder too large to walk 409 (the disk is the server's state)")
    func addingPaths() async throws {
        let fixture = try await ServerFixture.shared.value
        let folder = fixture.root.appendingPathComponent("documented-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<5 { FileManager.default.createFile(atPath: folder.appendingPathComponent("\(index).txt").path, contents: Data()) }
        try await fixture.application().test(.router) { client in
            for (path, status, code) in [("/definitely/not/here", HTTPResponse.Status.notFound, "source-not-found"), (folder.path, .conflict, "not-media")] {
                try await client.execute(uri: "/api/assets", method: .post, body: .json(#"{"paths": ["\#(path)"]}"#)) { response throws in
                    #expect(response.status == status, "\(path): \(response.text)")
                    #expect(try response.json(APIErrorBody.self).error.code == code)
                }
            }
        }
        // The walk stops past its limit (100,000 entries for a request) instead of reading a whole disk.
        #expect(MediaLibrary.mediaFiles(in: folder, limit: 4) == nil)
        #expect(MediaLibrary.mediaFiles(in: folder, limit: 5) == [])
        #expect(MediaLibrary.maximumFolderEntries == 100_000)
        #expect(LibraryError.folderTooLarge("/", limit: 100_000).description.contains("more than 100000"))
    }

    @Test("permanently is a boolean, as the document says: true or false, nothing else")
    func permanentlyIsABoolean() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            for value in ["yes", "1", "TRUE", "x", ""] {
                // Refused before the asset is looked up: nothing is deleted or trashed.
                try await client.execute(uri: "/api/assets/\(fixture.clipID)?permanently=\(value)", method: .delete) { response throws in
                    #expect(response.status == .badRequest, "\(value): \(response.text)")
                    #expect(response.errorMessage.contains("true or false"))
                }
            }
            try await client.execute(uri: "/api/assets/no-such-asset?permanently=false", method: .delete) { response throws in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("A position's duration is more than 0, as the document's exclusiveMinimum says")
    func positionDuration() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            for body in [#"{"position": 0, "duration": 0}"#, #"{"position": 0, "duration": -1}"#] {
                try await client.execute(uri: "/api/assets/\(fixture.clipID)/position", method: .put, body: .json(body)) { response throws in
                    #expect(response.status == .badRequest, "\(body): \(response.text)")
                    #expect(response.errorMessage.contains("duration"))
                }
            }
        }
    }

    @Test("A premiere the server's clock rules out is a 409 (the document cannot say \"after now\")")
    func premiereTimes() async throws {
        // A library of its own: activities keep their tables in its database.
        let root = try temporaryDirectory()
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
        let asset = Asset(title: "Premiere", duration: 60, status: .ready)
        _ = try await library.store.insert(asset, job: false)
        let host = try await LiveActivityHost.start(library: library, downloads: nil, sessions: nil, apns: nil)
        defer { Task { await host.stop() } }
        var server = MarqueeServer(library: library)
        server.activities = host
        try await Application(router: server.router()).test(.router) { client in
            let formatter = ISO8601DateFormatter()
            for (startsAt, code) in [
                (Date().addingTimeInterval(-60), "premiere-not-in-future"), (Date().addingTimeInterval(8 * 24 * 3600), "premiere-too-far"),
            ] {
                let body = #"{"assetID": "\#(asset.id)", "startsAt": "\#(formatter.string(from: startsAt))"}"#
                try await client.execute(uri: "/api/activities/premieres", method: .post, body: .json(body)) { response throws in
                    #expect(response.status == .conflict, "\(response.text)")
                    #expect(try response.json(APIErrorBody.self).error.code == code)
                }
            }
            try await client.execute(uri: "/api/activities/premieres", method: .post, body: .json(#"{"assetID": "\#(asset.id)", "startsAt": ""}"#)) {
                response throws in
                #expect(response.status == .badRequest)
            }
        }
    }
}
