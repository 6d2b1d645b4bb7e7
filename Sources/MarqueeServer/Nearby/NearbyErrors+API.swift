import HTTPTypes

extension NearbyDevices.ChoosingError: APIErrorConvertible {
    /// 400 for a device that cannot be asked, 429 while pairing with it is locked after failures.
    public var apiError: APIError {
        switch self {
        case .badTarget(let problem): APIError(.badRequest, problem)
        case .locked: APIError(.tooManyRequests, description)
        }
    }
}

extension NearbyDevices.PlayOnError: APIErrorConvertible {
    /// 404 for an unknown TV or item, 400 for a request it refuses, 502 when the TV cannot be
    /// reached, 409 when it refuses.
    public var apiError: APIError {
        switch self {
        case .unknownTV, .unknownItem: APIError(.notFound, description)
        case .badRequest: APIError(.badRequest, description)
        case .unreachable: APIError(.badGateway, description)
        case .refused: APIError(.conflict, description)
        }
    }
}
