import Accounts
import Foundation
import Hummingbird
import Library
import NIOCore

/// An API failure a client can act on: an HTTP status and a sentence saying what went wrong.
/// Sent as `{"error": {"status": 404, "message": "…"}}`.
public struct APIError: HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    public let message: String
    /// Extra response headers, such as `Content-Range` on a 416.
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = try encoder.encode(APIErrorBody(error: .init(status: status.code, message: message)))
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Maps any error a route throws to the status and message a client should see.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as LibraryError:
            switch error {
            case .assetNotFound, .jobNotFound: return APIError(.notFound, error.description)
            case .sourceNotFound, .unsupportedSource, .unsafeBundle, .invalidSettings, .invalidRequest:
                return APIError(.badRequest, error.description)
            case .jobNotRetryable: return APIError(.conflict, error.description)
            case .toolFailed: return APIError(.internalServerError, error.description)
            case .mediaFailed: return APIError(.unprocessableContent, error.description)
            }
        case let error as AccountError:
            switch error {
            case .wrongCredentials: return APIError(.unauthorized, error.description)
            case .wrongSetupCode: return APIError(.forbidden, error.description)
            case .accountNotFound, .credentialNotFound: return APIError(.notFound, error.description)
            case .ownerExists, .nameTaken, .lastOwner, .tooManyCredentials: return APIError(.conflict, error.description)
            case .invalidName, .weakPassword, .invalidLabel: return APIError(.badRequest, error.description)
            }
        case let error as SignInThrottled:
            let seconds = max(1, Int(error.retryAfter.rounded(.up)))
            return APIError(.tooManyRequests, error.description, headers: [.retryAfter: String(seconds)])
        case let error as NIOTooManyBytesError:
            let limit = error.maxBytes.map { " (at most \($0) bytes)" } ?? ""
            return APIError(.contentTooLarge, "The request body is too large\(limit)")
        case let error as UploadError:
            switch error {
            case .notFound: return APIError(.notFound, error.description)
            case .invalidRange, .chunkTooLong, .invalidFileName: return APIError(.badRequest, error.description)
            case .offsetMismatch(let expected, _):
                return APIError(.conflict, error.description, headers: [UploadHeader.offset: String(expected)])
            case .busy, .incomplete: return APIError(.conflict, error.description)
            // The request is larger than the server can take (a 4xx, as nginx's body limit is).
            case .insufficientSpace: return APIError(.contentTooLarge, error.description)
            }
        case let error as HTTPError:
            return APIError(error.status, error.body ?? error.status.reasonPhrase, headers: error.headers)
        case let error as DecodingError:
            return APIError(.badRequest, "The request body is not valid JSON for this call: \(Self.describe(error))")
        default:
            return APIError(.internalServerError, String(describing: error))
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

/// Turns every error under `/api/` into a JSON `APIError` response, and unknown API paths
/// into a JSON 404.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let redirect as RedirectToSignIn {
            throw redirect
        } catch {
            let apiError = APIError.from(error)
            if apiError.status == .notFound, (error as? HTTPError) != nil, request.uri.path.hasPrefix("/api/") {
                throw APIError(.notFound, "No API route \(request.method) \(request.uri.path)")
            }
            throw apiError
        }
    }
}

/// The JSON shape of an error response.
public struct APIErrorBody: Codable, Sendable {
    public struct Detail: Codable, Sendable {
        public let status: Int
        public let message: String
    }

    public let error: Detail
}
