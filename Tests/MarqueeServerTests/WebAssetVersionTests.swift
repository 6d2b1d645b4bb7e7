import Accounts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MarqueeServer

/// Pages name their scripts and stylesheets under the web root's version, and those answers
/// may be cached for good, so a browser loads a page's modules from its own cache after the
/// first visit instead of revalidating each one (the player's time to first frame).
@Suite("Versioned web files")
struct WebAssetVersionTests {
    /// A folder with the given files (relative path → text).
    static func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    @Test("The version follows the files' contents: the same files elsewhere agree, an edit changes it")
    func versionFollowsContents() async throws {
        let files = ["a.html": "<p>a</p>", "js/x.js": "export const x = 1;"]
        let one = try Self.folder(files)
        try await Task.sleep(for: .milliseconds(20))  // other modification times
        let two = try Self.folder(files)
        let first = WebRootVersion(root: one, recheckAfter: .zero)
        let version = try await first.current()
        #expect(version.count == 12 && version.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(try await WebRootVersion(root: two).current() == version)
        try Data("export const x = 2;".utf8).write(to: one.appendingPathComponent("js/x.js"))
        let edited = try await first.current()
        #expect(edited != version)
        try Data("export const x = 1;".utf8).write(to: one.appendingPathComponent("js/x.js"))
        #expect(try await first.current() == version)
        // Trusted for its window: an edit within it is seen after it.
        let slow = WebRootVersion(root: two, recheckAfter: .seconds(3600))
        let before = try await slow.current()
        try Data("<p>b</p>".utf8).write(to: two.appendingPathComponent("a.html"))
        #expect(try await slow.current() == before)
    }

    @Test("Addresses with a version, and without a file after it, split as the responder reads them")
    func splitting() {
        #expect(VersionedWebPaths<NotFound>.split("/ui/v/abc/js/x.js").map { "\($0.version) \($0.plain)" } == "abc /ui/js/x.js")
        #expect(VersionedWebPaths<NotFound>.split("/ui/v/abc/js/x.js?q=1").map { $0.plain } == "/ui/js/x.js?q=1")
        for target in ["/ui/js/x.js", "/ui/v/abc", "/ui/v/abc/", "/ui/v//js/x.js", "/ui/v/abc/?x", "/ui/vx/abc/y"] {
            #expect(VersionedWebPaths<NotFound>.split(target) == nil, "\(target)")
        }
    }

    @Test("The player names every file under the current version; those answers are cached for good, others revalidated")
    func playerPageAndItsFiles() async throws {
        let fixture = try await ServerFixture.shared.value
        let server = MarqueeServer(library: fixture.library)
        let version = try await server.webPages.version.current()
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            let page = try await client.execute(uri: "/watch/\(fixture.clipID)", method: .get) { $0 }
            #expect(page.status == .ok)
            #expect(page.headers[.cacheControl] == "no-cache")
            #expect(page.headers[.eTag] == "\"\(version)\"")
            let html = String(buffer: page.body)
            let addresses = Set(html.matches(of: /(?:src|href)="(\/ui\/[^"]+)"/).map { String($0.output.1) })
            #expect(addresses.count >= 5)
            #expect(addresses.allSatisfy { $0.hasPrefix("/ui/v/\(version)/") }, "\(addresses.sorted())")
            for address in addresses.sorted() {
                let plain = "/ui/" + address.dropFirst("/ui/v/\(version)/".count)
                let versioned = try await client.execute(uri: address, method: .get) { $0 }
                let unversioned = try await client.execute(uri: plain, method: .get) { $0 }
                #expect(versioned.status == .ok, "\(address)")
                #expect(versioned.headers[.cacheControl] == VersionedWebPaths<NotFound>.foreverCaching, "\(address)")
                #expect(unversioned.headers[.cacheControl] == "no-cache", "\(plain)")
                #expect(versioned.body == unversioned.body, "\(address)")
            }
            // A page opened before an upgrade asks under its old version: it gets today's file, revalidated.
            try await client.execute(uri: "/ui/v/000000000000/js/player/main.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-cache")
            }
            try await client.execute(uri: "/ui/v/\(version)/js/no-such-file.js", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.cacheControl] != VersionedWebPaths<NotFound>.foreverCaching)
            }
            // Revalidating the page with its ETag costs nothing while the files are unchanged.
            try await client.execute(uri: "/watch/\(fixture.clipID)", method: .get, headers: [.ifNoneMatch: "\"\(version)\""]) { response in
                #expect(response.status == .notModified)
            }
        }
    }

    @Test("The access rules read a versioned address as the plain one")
    func accessRulesSeeThePlainAddress() async throws {
        let fixture = try await ServerFixture.shared.value
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        let accounts = AccountService(store: try SQLiteAccountStore(url: directory.appendingPathComponent("accounts.sqlite")), hasher: .fast)
        _ = try await accounts.createOwner(name: "ann", password: "owner password", setupCode: nil, trustedCaller: true)
        let server = MarqueeServer(library: fixture.library, access: ServerAccess(mode: .signInRequired, accounts: accounts))
        let version = try await server.webPages.version.current()
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            // The sign-in page and its files open signed out, under any version.
            let page = try await client.execute(uri: "/signin", method: .get) { $0 }
            #expect(page.status == .ok)
            #expect(String(buffer: page.body).contains("/ui/v/\(version)/js/signin.js"))
            for version in [version, "000000000000"] {
                try await client.execute(uri: "/ui/v/\(version)/js/signin.js", method: .get) { response in
                    #expect(response.status == .ok)
                }
                // The library's files do not, whatever the version says.
                try await client.execute(uri: "/ui/v/\(version)/js/library.js", method: .get) { response in
                    #expect(response.status == .unauthorized || response.status == .seeOther)
                    #expect(response.headers[.cacheControl] != VersionedWebPaths<NotFound>.foreverCaching)
                }
            }
        }
    }
}

/// A responder type to name `VersionedWebPaths`' static members with.
private struct NotFound: HTTPResponder {
    func respond(to request: Request, context: BasicRequestContext) async throws -> Response { Response(status: .notFound) }
}
