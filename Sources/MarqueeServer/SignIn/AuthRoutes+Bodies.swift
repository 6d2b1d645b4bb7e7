import Accounts
import Foundation
import Hummingbird

/// The bodies `AuthRoutes` reads and answers.
extension AuthRoutes {
    struct SessionInfo: ResponseEncodable {
        struct AccountInfo: Codable {
            var name: String
            var role: String
            var proof: String
        }
        var mode: String
        var signedIn: Bool
        var needsOwner: Bool
        /// The rule for a new account's name (`AccountService.namePattern`), so the setup form
        /// can say at once that a name will be refused.
        var namePattern: String
        var account: AccountInfo?
    }

    struct SignInRequest: Decodable {
        var name: String
        var password: String
    }
    struct SetupRequest: Decodable {
        var name: String
        var password: String
        var setupCode: String?
    }
    struct PasswordRequest: Decodable {
        var currentPassword: String?
        var newPassword: String
    }
    struct NewUserRequest: Decodable {
        var name: String
        var password: String
        var role: Role
    }
    struct UserChangeRequest: Decodable {
        var role: Role?
        var password: String?
    }
    struct NewTokenRequest: Decodable { var name: String }

    struct UserResource: ResponseEncodable, Decodable {
        var name: String
        var role: String
        var createdAt: Date
        init(_ account: Account) {
            name = account.name
            role = account.role.rawValue
            createdAt = account.createdAt
        }
    }
    struct UserList: ResponseEncodable { var users: [UserResource] }
    struct TokenResource: ResponseEncodable {
        var id: String
        var name: String
        var createdAt: Date
        var lastUsedAt: Date
        /// Only in the answer that creates it.
        var token: String?
    }
    struct TokenList: ResponseEncodable { var tokens: [TokenResource] }
}
