import Hummingbird

/// A `303 See Other` to the sign-in page, thrown so it passes through the error middleware.
struct RedirectToSignIn: HTTPResponseError {
    let location: String
    var status: HTTPResponse.Status { .seeOther }
    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }
}
