public import Accounts
import HTTPTypes

extension AccountError: APIErrorConvertible {
    /// Wrong credentials are 401, a wrong setup code 403, unknown names 404, rules about
    /// owners, names and credential counts 409, and malformed names, passwords and labels 400.
    public var apiError: APIError {
        switch self {
        case .wrongCredentials: APIError(.unauthorized, description)
        case .wrongSetupCode: APIError(.forbidden, description)
        case .accountNotFound, .credentialNotFound: APIError(.notFound, description)
        case .ownerExists, .nameTaken, .lastOwner, .tooManyCredentials: APIError(.conflict, description)
        case .invalidName, .weakPassword, .invalidLabel: APIError(.badRequest, description)
        }
    }
}

extension SignInThrottled: APIErrorConvertible {
    /// `429` with `Retry-After` in whole seconds (at least 1).
    public var apiError: APIError {
        let seconds = max(1, Int(retryAfter.rounded(.up)))
        return APIError(.tooManyRequests, description, headers: [.retryAfter: String(seconds)])
    }
}
