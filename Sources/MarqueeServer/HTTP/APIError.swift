import Foundation
public import Hummingbird
import Library
import Logging
import NIOCore

/// An API failure a client can act on: an HTTP status, a stable code a program can test and a
/// sentence saying what went wrong. Sent as
/// `{"error": {"status": 404, "code": "not-found", "message": "…"}}`.
///
/// `APIError.from` is the one mapping from every error a route throws to its answer; each
/// domain error declares its own answer through `APIErrorConvertible`. An error
/// it does not know is answered `500` with `code: "internal"` and a fixed sentence — never the
/// error's own text, which may hold paths, SQL or library internals; the full error goes to
/// the server's log (`JSONErrorMiddleware`).
public struct APIError: HTTPResponseError, Sendable {
    /// The HTTP status of the response (4xx for the client's mistakes, 5xx for the server's).
    public let status: HTTPResponse.Status
    /// A sentence for a person, sent as `error.message`; it must not reveal server paths or internals.
    public let message: String
    /// A short, stable name for the kind of failure (`disk-full`, `upload-busy`, `internal`);
    /// by default the status's own (`not-found`, `conflict`).
    public let code: String
    /// Extra response headers, such as `Content-Range` on a 416.
    public var headers: HTTPFields

    /// An error answered with `status` and `message`; `code` defaults to the status's reason
    /// phrase, lower-cased and hyphenated (`not-found`).
    public init(_ status: HTTPResponse.Status, _ message: String, code: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.code = code ?? Self.code(for: status)
        self.headers = headers
    }

    /// `507 Insufficient Storage`: the server's disk (or its database's) is full.
    public static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    /// The answer to an error nobody mapped: a sentence that reveals nothing of the server.
    static let internalFailure = APIError(
        .internalServerError, "The server failed to answer this request; its log says why", code: "internal")

    /// The answer when the disk or the database cannot grow.
    static let diskFull = APIError(
        insufficientStorage, "The server's disk is full: free some space on it (or ask its owner to), then try again",
        code: "disk-full")

    /// The answer while the database or the media storage does not answer: 503, a sentence
    /// naming the service (never its own error text), and `Retry-After`.
    static func unavailable(_ service: ServiceUnavailable.Service) -> APIError {
        switch service {
        case .database:
            APIError(
                .serviceUnavailable, "The library's database is not answering right now; try again in a moment",
                code: "database-unavailable", headers: [.retryAfter: "5"])
        case .mediaStorage:
            APIError(
                .serviceUnavailable, "The media storage is not answering right now; try again in a moment",
                code: "media-storage-unavailable", headers: [.retryAfter: "5"])
        }
    }

    /// The outage behind `error`, when it is one (for the log).
    static func outage(_ error: any Error) -> ServiceUnavailable? {
        (error as? ServiceUnavailable) ?? (error as? any ServiceUnavailableConvertible)?.unavailable
    }

    /// "not-found" for 404, "too-many-requests" for 429: the reason phrase, lower-cased, hyphenated.
    static func code(for status: HTTPResponse.Status) -> String {
        let phrase = status.reasonPhrase.isEmpty ? "status-\(status.code)" : status.reasonPhrase
        return phrase.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }

    /// Whether this is the server's own failure (an error nobody mapped, or one that says it
    /// is a 500): the ones to log in full.
    var isInternal: Bool { status == .internalServerError }

    /// Whether this is `internalFailure`, the answer to an error nobody mapped (its sentence
    /// reveals nothing, so it needs no redaction).
    var isUnmapped: Bool { code == Self.internalFailure.code }

    /// The JSON error body with `status`, `headers`, `Content-Type: application/json` and
    /// `Cache-Control: no-store`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = try encoder.encode(APIErrorBody(error: .init(status: status.code, code: code, message: message)))
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Maps any error a route throws to the status and message a client should see: an
    /// `APIError` as it is, an `APIErrorConvertible` as it says, the few errors of HTTP itself,
    /// and anything else as `internalFailure`.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as any APIErrorConvertible:
            return error.apiError
        case let error as ServiceUnavailable:
            return unavailable(error.service)
        case let error as any ServiceUnavailableConvertible where error.unavailable != nil:
            return unavailable(error.unavailable!.service)
        case let error as NIOTooManyBytesError:
            let limit = error.maxBytes.map { " (at most \($0) bytes)" } ?? ""
            return APIError(.contentTooLarge, "The request body is too large\(limit)")
        case let error as HTTPError:
            return APIError(error.status, error.body ?? error.status.reasonPhrase, headers: error.headers)
        case let error as DecodingError:
            return APIError(.badRequest, "The request body is not valid JSON for this call: \(Self.describe(error))")
        case _ where StorageFailure.isOutOfSpace(error):
            return diskFull
        default:
            return internalFailure
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing field \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "wrong type at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\""
        case .dataCorrupted(let context): context.debugDescription
        @unknown default: "unreadable"
        }
    }
}

/// Turns every error under `/api/` into a JSON `APIError` response, unknown API paths into a
/// JSON 404, and a method a routed path does not take into a 405 with `Allow`.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The routed paths and their methods; nil answers 404 to any unrouted request.
    var routes: RouteMethods? = nil

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let redirect as RedirectToSignIn {
            throw redirect
        } catch {
            let apiError = APIError.from(error)
            if apiError.isInternal {
                context.logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: error))")
            } else if let outage = APIError.outage(error) {
                context.logger.warning("\(request.method) \(request.uri.path) answered 503: \(outage)")
            }
            if apiError.status == .notFound, (error as? HTTPError) != nil, let allowed = routes?.allowed(for: request.uri.path), !allowed.isEmpty {
                let list = allowed.joined(separator: ", ")
                throw APIError(
                    .methodNotAllowed, "\(request.uri.path) does not take \(request.method); it takes \(list)", code: "method-not-allowed",
                    headers: [.allow: list])
            }
            if apiError.status == .notFound, (error as? HTTPError) != nil, request.uri.path.lowercased().hasPrefix("/api/") {
                throw APIError(.notFound, "No API route \(request.method) \(request.uri.path)", code: "no-route")
            }
            throw apiError
        }
    }
}

/// The JSON shape of an error response.
public struct APIErrorBody: Codable, Sendable {
    /// What went wrong: `{"status": 404, "code": "not-found", "message": "…"}`.
    public struct Detail: Codable, Sendable {
        /// The HTTP status code, repeated in the body.
        public let status: Int
        /// A stable name for the kind of failure (absent from servers before it existed).
        public let code: String?
        /// The sentence to show a person.
        public let message: String

        /// A detail; `code` is optional only for decoding answers from older servers.
        public init(status: Int, code: String? = nil, message: String) {
            self.status = status
            self.code = code
            self.message = message
        }
    }

    /// The one member of the body: `{"error": {…}}`.
    public let error: Detail
}
