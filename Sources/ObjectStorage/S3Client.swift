public import AsyncHTTPClient
import Crypto
public import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A small client for the S3 API, enough for a media library: put (multipart for large
/// files), get (with a byte range), head, delete, list, and presigned URLs.
///
/// Every request is signed with SigV4 over the payload's SHA-256 (the server checks the
/// bytes it got), carries `Content-MD5` on uploads, and is retried with backoff when the
/// service or the network fails (5xx, 429, connection errors), never when it refuses (4xx).
/// Addressing is path-style (`endpoint/bucket/key`) when an endpoint is given (SeaweedFS,
/// MinIO), virtual-hosted on AWS itself.
public final class S3Client: Sendable {
    public let bucket: String
    public let endpoint: URL
    let pathStyle: Bool
    let signer: SigV4Signer
    let http: HTTPClient
    /// Files larger than this go up in parts of this size (S3's minimum part is 5 MiB).
    public let multipartPartSize: Int
    public let maximumAttempts: Int
    /// How long one request waits for the bucket's answer to begin (its status line and
    /// headers), plus the time its body takes to go up at 256 KiB/s. A bucket that accepts
    /// connections but does not answer is an outage after this, not after the HTTP client's
    /// two minutes; an attempt that ran out of time is not tried again (the next would wait as long).
    public let answerTimeout: Duration

    /// The HTTP client every `S3Client` shares unless given one: a refused connection fails the
    /// attempt at once and a connection takes at most 2 s to open, so the client's own retries
    /// (`maximumAttempts`, backing off from 200 ms) decide, and a bucket that is down is an
    /// error within about 2 s. (Left on, the pool would retry connecting by itself until the
    /// request's deadline, 120 s, and a segment request waited that long.)
    public static let defaultHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.timeout.connect = .seconds(2)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    public init(
        bucket: String, endpoint: URL?, region: String, accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil,
        multipartPartSize: Int = 8 * 1024 * 1024, maximumAttempts: Int = 4, answerTimeout: Duration = .seconds(5),
        httpClient: HTTPClient = S3Client.defaultHTTPClient
    ) {
        self.bucket = bucket
        if let endpoint {
            self.endpoint = endpoint
            pathStyle = true
        } else {
            self.endpoint = URL(string: "https://\(bucket).s3.\(region).amazonaws.com")!
            pathStyle = false
        }
        signer = SigV4Signer(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey, sessionToken: sessionToken, region: region)
        self.multipartPartSize = max(5 * 1024 * 1024, multipartPartSize)
        self.maximumAttempts = max(1, maximumAttempts)
        self.answerTimeout = answerTimeout
        http = httpClient
    }

    /// What `head` and `list` say about an object.
    public struct ObjectInfo: Sendable, Hashable {
        public var key: String
        public var size: Int
        public var etag: String?
        public var contentType: String?
    }

    /// An object's bytes (or the requested range of them) and what the service said about it.
    public struct Object: Sendable {
        public var data: Data
        /// The whole object's size (from `Content-Range` for a range).
        public var totalSize: Int?
        public var contentType: String?
        public var etag: String?
    }

    // MARK: Operations

    /// Stores `data` at `key` in one request.
    public func put(_ data: Data, key: String, contentType: String? = nil) async throws {
        var headers = ["content-md5": Data(Insecure.MD5.hash(data: data)).base64EncodedString()]
        if let contentType { headers["content-type"] = contentType }
        _ = try await send("PUT", key: key, headers: headers, body: data, expect: [200])
    }

    /// Stores a file at `key`: in one request when small, else as a multipart upload (parts
    /// in order, each checksummed; the upload is aborted if any part fails for good).
    public func putFile(_ file: URL, key: String, contentType: String? = nil) async throws {
        let size = try Self.fileSize(file)
        guard size > multipartPartSize else {
            try await put(try Self.read(file, offset: 0, length: size), key: key, contentType: contentType)
            return
        }
        var headers: [String: String] = [:]
        if let contentType { headers["content-type"] = contentType }
        let created = try await send("POST", key: key, query: [("uploads", "")], headers: headers, expect: [200])
        guard let uploadID = S3XML.firstValue(of: "UploadId", in: created.body) else {
            throw S3Error(operation: "start a multipart upload of \(key)", status: created.status, code: "NoUploadId", message: "the service gave no UploadId")
        }
        do {
            var parts: [(Int, String)] = []
            var offset = 0
            var number = 1
            while offset < size {
                let length = min(multipartPartSize, size - offset)
                let chunk = try Self.read(file, offset: offset, length: length)
                let response = try await send(
                    "PUT", key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)],
                    headers: ["content-md5": Data(Insecure.MD5.hash(data: chunk)).base64EncodedString()],
                    body: chunk, expect: [200])
                guard let etag = response.headers["etag"] else {
                    throw S3Error(operation: "upload part \(number) of \(key)", status: response.status, code: "NoETag", message: "the service gave no ETag")
                }
                parts.append((number, etag))
                offset += length
                number += 1
            }
            let manifest =
                "<CompleteMultipartUpload>"
                + parts.map {
                    "<Part><PartNumber>\($0.0)</PartNumber><ETag>\(S3XML.escape($0.1))</ETag></Part>"
                }.joined() + "</CompleteMultipartUpload>"
            let completed = try await send("POST", key: key, query: [("uploadId", uploadID)], body: Data(manifest.utf8), expect: [200])
            // S3 may answer 200 with an error document when completing fails late.
            if let code = S3XML.firstValue(of: "Code", in: completed.body) {
                throw S3Error(
                    operation: "complete the upload of \(key)", status: 200, code: code, message: S3XML.firstValue(of: "Message", in: completed.body) ?? "")
            }
        } catch {
            _ = try? await send("DELETE", key: key, query: [("uploadId", uploadID)], expect: [204, 200])
            throw error
        }
    }

    /// The object at `key`, or the bytes in `range` of it (inclusive bounds, as HTTP's `Range`).
    public func get(_ key: String, range: ClosedRange<Int>? = nil) async throws -> Object {
        var headers: [String: String] = [:]
        if let range { headers["range"] = "bytes=\(range.lowerBound)-\(range.upperBound)" }
        let response = try await send("GET", key: key, headers: headers, expect: [200, 206])
        let total =
            response.headers["content-range"].flatMap { $0.split(separator: "/").last.flatMap { Int($0) } }
            ?? response.headers["content-length"].flatMap(Int.init)
        return Object(data: response.body, totalSize: total, contentType: response.headers["content-type"], etag: response.headers["etag"])
    }

    /// Size, ETag and type of the object at `key`, or `nil` when there is none.
    public func head(_ key: String) async throws -> ObjectInfo? {
        let response = try await send("HEAD", key: key, expect: [200, 404])
        guard response.status == 200 else { return nil }
        return ObjectInfo(
            key: key, size: response.headers["content-length"].flatMap(Int.init) ?? 0,
            etag: response.headers["etag"], contentType: response.headers["content-type"])
    }

    /// Deletes the object at `key` (no error when there is none, as S3 does).
    public func delete(_ key: String) async throws {
        _ = try await send("DELETE", key: key, expect: [204, 200])
    }

    /// Every object whose key starts with `prefix`, following continuation tokens.
    public func list(prefix: String) async throws -> [ObjectInfo] {
        var found: [ObjectInfo] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send("GET", key: nil, query: query, expect: [200])
            let page = S3XML.listing(response.body)
            found += page.objects
            token = page.truncated ? page.nextToken : nil
        } while token != nil
        return found
    }

    /// Creates the bucket (no error when it already exists and is ours).
    public func createBucket() async throws {
        let response = try await send("PUT", key: nil, expect: [200, 409])
        if response.status == 409, S3XML.firstValue(of: "Code", in: response.body) != "BucketAlreadyOwnedByYou" {
            throw S3Error(
                operation: "create bucket \(bucket)", status: 409, code: S3XML.firstValue(of: "Code", in: response.body) ?? "Conflict",
                message: S3XML.firstValue(of: "Message", in: response.body) ?? "")
        }
    }

    /// A URL anyone can `GET` the object at `key` with, for `expires` seconds.
    public func presignedURL(for key: String, expires: Int = 3600, date: Date = Date()) -> URL {
        signer.presignedURL(method: "GET", url: url(for: key, query: []), expires: expires, date: date)
    }

    // MARK: Requests

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    func url(for key: String?, query: [(String, String)]) -> URL {
        var path = pathStyle ? "/" + SigV4Signer.encode(bucket, keepSlash: false) : ""
        if let key { path += "/" + SigV4Signer.encode(key, keepSlash: true) }
        if path.isEmpty { path = "/" }
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { "\(SigV4Signer.encode($0.0, keepSlash: false))=\(SigV4Signer.encode($0.1, keepSlash: false))" }
                .joined(separator: "&")
        }
        return components.url!
    }

    func send(
        _ method: String, key: String?, query: [(String, String)] = [], headers: [String: String] = [:], body: Data = Data(),
        expect: Set<Int>
    ) async throws -> Response {
        let target = url(for: key, query: query)
        let operation = "\(method) \(key.map { "\(bucket)/\($0)" } ?? bucket)"
        let payloadHash = SigV4Signer.hex(SHA256.hash(data: body))
        var attempt = 0
        while true {
            attempt += 1
            do {
                var request = HTTPClientRequest(url: target.absoluteString)
                request.method = .init(rawValue: method)
                for (name, value) in signer.signedHeaders(method: method, url: target, headers: headers, payloadHash: payloadHash) where name != "host" {
                    request.headers.add(name: name, value: value)
                }
                if !body.isEmpty || method == "PUT" || method == "POST" { request.body = .bytes(ByteBuffer(data: body)) }
                let response = try await http.execute(request, timeout: timeAllowed(sending: body.count))
                let bytes = method == "HEAD" ? ByteBuffer() : try await response.body.collect(upTo: 1 << 30)
                let status = Int(response.status.code)
                let result = Response(
                    status: status, headers: Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }),
                    body: Data(buffer: bytes))
                if expect.contains(status) { return result }
                let error = S3Error(
                    operation: operation, status: status, code: S3XML.firstValue(of: "Code", in: result.body) ?? "HTTP\(status)",
                    message: S3XML.firstValue(of: "Message", in: result.body) ?? "")
                guard status >= 500 || status == 429, attempt < maximumAttempts else { throw error }
            } catch let error as S3Error {
                throw error
            } catch {
                if let failure = Self.finalNetworkFailure(error, attempt: attempt, of: maximumAttempts, operation: operation) { throw failure }
            }
            try await Task.sleep(for: .milliseconds(100 << min(attempt, 6)))
        }
    }

    /// The deadline for one attempt's answer to begin (`answerTimeout`, plus sending time for a body).
    func timeAllowed(sending bytes: Int) -> TimeAmount {
        let (seconds, attoseconds) = answerTimeout.components
        let base = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        return base + .milliseconds(Int64(bytes / 256))
    }

    /// The error that ends an operation after a network failure of one attempt, or `nil` to
    /// try again: the last attempt, a cancelled one, and one the bucket did not answer in time end it.
    static func finalNetworkFailure(_ error: any Error, attempt: Int, of attempts: Int, operation: String) -> S3Error? {
        if let timeout = error as? HTTPClientError, timeout == .deadlineExceeded {
            return S3Error(operation: operation, status: 0, code: "NetworkError", message: "the bucket did not answer in time")
        }
        guard attempt < attempts, !(error is CancellationError) else {
            return S3Error(operation: operation, status: 0, code: "NetworkError", message: String(describing: error))
        }
        return nil
    }

    static func fileSize(_ file: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
    }

    static func read(_ file: URL, offset: Int, length: Int) throws -> Data {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        return try handle.read(upToCount: length) ?? Data()
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

/// An S3 request that failed: what was asked, the HTTP status (0 when the network failed),
/// and the service's error code and message.
public struct S3Error: Error, Sendable, Hashable, CustomStringConvertible {
    public var operation: String
    public var status: Int
    public var code: String
    public var message: String

    public var description: String {
        "S3 \(operation) failed: \(status == 0 ? "" : "HTTP \(status) ")\(code)\(message.isEmpty ? "" : ": \(message)")"
    }
}
