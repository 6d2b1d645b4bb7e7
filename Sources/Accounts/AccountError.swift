/// Why an account operation was refused, in words a person can act on.
public enum AccountError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidName(String)
    case weakPassword(String)
    case nameTaken(String)
    case accountNotFound(String)
    case wrongCredentials
    case wrongSetupCode
    case ownerExists
    case lastOwner
    case credentialNotFound(String)
    case invalidLabel(String)
    case tooManyCredentials(Int)

    public var description: String {
        switch self {
        case .invalidName(let why): "Invalid account name: \(why)"
        case .weakPassword(let why): "Password not accepted: \(why)"
        case .nameTaken(let name): "An account named \"\(name)\" already exists"
        case .accountNotFound(let name): "No account named \"\(name)\""
        case .wrongCredentials: "Wrong name or password"
        case .wrongSetupCode: "Wrong setup code; it is printed in the server's console when it starts without an owner"
        case .ownerExists: "This server already has an owner; sign in instead"
        case .lastOwner: "The last owner account cannot be removed or demoted"
        case .credentialNotFound(let id): "No session or token \"\(id)\""
        case .invalidLabel(let why): "Invalid token name: \(why)"
        case .tooManyCredentials(let limit): "An account may hold at most \(limit) API tokens; revoke one first"
        }
    }
}
