import HTTPTypes
import Playback

extension GroupJoinError: APIErrorConvertible {
    /// An unknown session or an invitation that is not (or no longer) valid is 404; a full group 409.
    public var apiError: APIError {
        switch self {
        case .noSession: APIError(.notFound, "No playback session with that ID", code: "session-not-found")
        case .invitationNotValid:
            APIError(.notFound, "This invitation to watch together has expired or was withdrawn; ask for a new link", code: "invitation-not-valid")
        case .full: APIError(.conflict, "This group is full: \(WatchGroup.maximumParticipants) people are watching already", code: "group-full")
        }
    }
}
