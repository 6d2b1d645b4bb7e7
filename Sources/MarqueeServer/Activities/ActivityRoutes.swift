import APNs
import Foundation
public import Hummingbird
import JSONDocument
public import LiveActivities
import NIOCore
import ServiceLifecycle

extension ActivitySnapshot: ResponseEncodable {}
extension ActivityPushToken: ResponseEncodable {}
extension PushToStartToken: ResponseEncodable {}
extension BroadcastChannel: ResponseEncodable {}

/// `/activities` (the page) and `/api/activities…`: list, read, start, update and end Live
/// Activities of any type; push tokens and push-to-start tokens per device; broadcast
/// channels; premieres; and `GET /api/activities/events`, every change as Server-Sent Events.
struct ActivityRoutes: Sendable {
    let host: LiveActivityHost
    /// The web app's pages.
    let pages: WebPages
    var heartbeat: Duration = .seconds(5)

    struct PushStatus: Codable, Sendable {
        var enabled: Bool
        var reason: String?
        /// A stable code for why pushes are off, for pages to say it in their language:
        /// `not-configured` (no APNs settings) or `configuration-error` (settings that could not be used).
        var reasonCode: String?
        var bundleID: String?
        var environment: String?
    }

    struct ActivityList: ResponseEncodable {
        var activities: [ActivitySnapshot]
        var pushes: PushStatus
    }

    struct StartRequest: Decodable {
        var type: String
        var attributes: JSONValue?
        var contentState: JSONValue
        var staleDate: Date?
        var relevanceScore: Double?
        var alert: AlertConfiguration?
        var startDate: Date?
    }

    struct UpdateRequest: Decodable {
        var contentState: JSONValue
        var staleDate: Date?
        var relevanceScore: Double?
        var alert: AlertConfiguration?
        var timestamp: Date?
    }

    struct EndRequest: Decodable {
        var contentState: JSONValue?
        var staleDate: Date?
        var relevanceScore: Double?
        /// `default`, `immediate` or `after` (with `dismissalDate`).
        var dismissalPolicy: String?
        var dismissalDate: Date?
        var timestamp: Date?
    }

    struct Outcome: ResponseEncodable {
        var outcome: String
        var activity: ActivitySnapshot
    }

    struct TokenRequest: Decodable {
        var token: String
        var deviceID: String
        var environment: PushEnvironment?
        var attributesType: String?
    }

    struct ChannelRequest: Decodable {
        var storagePolicy: Int?
        var activityID: String?
        var environment: PushEnvironment?
    }

    struct PremiereRequest: Decodable {
        var assetID: String
        var startsAt: Date
        var relevanceScore: Double?
    }

    struct Tokens<T: Encodable & Sendable>: ResponseEncodable { var tokens: [T] }
    struct Channels: ResponseEncodable { var channels: [BroadcastChannel] }
    struct Outcomes: ResponseEncodable { var outcomes: [PushOutcomeRecord] }

    var pushStatus: PushStatus {
        PushStatus(
            enabled: host.client != nil, reason: host.pushesOffReason,
            reasonCode: host.client != nil ? nil : (host.pushesOffReason == LiveActivityHost.notConfigured ? "not-configured" : "configuration-error"),
            bundleID: host.client?.configuration.bundleID,
            environment: host.client?.configuration.environment.rawValue)
    }

    var center: ActivityCenter { host.center }

    func register(on router: Router<MarqueeRequestContext>) {
        router.get("activities", use: page)
        let api = router.group("api/activities")
        api.get(use: list)
        api.get("events") { _, context -> Response in events(context) }
        api.get("push-status") { _, _ -> Response in try Self.json(pushStatus) }
        api.post(use: start)
        api.post("premieres", use: schedulePremiere)
        // Push-to-start tokens (per device and attributes type).
        api.post("push-to-start-tokens", use: registerPushToStartToken)
        api.get("push-to-start-tokens", use: pushToStartTokens)
        api.delete("push-to-start-tokens/{token}", use: deletePushToStartToken)
        api.get("push-tokens", use: pushTokens)
        api.delete("push-tokens/{token}", use: deletePushToken)
        // Broadcast channels (need APNs).
        api.get("channels", use: channels)
        api.post("channels", use: createChannel)
        api.delete("channels/{channel}", use: deleteChannel)
        api.get("{id}", use: activity)
        api.get("{id}/push-outcomes", use: outcomes)
        api.post("{id}/update", use: update)
        api.post("{id}/end", use: end)
        api.delete("{id}", use: delete)
        api.post("{id}/push-tokens", use: registerPushToken)
    }

    @Sendable func page(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await pages.page("activities.html", request: request, context: context)
    }

    /// `GET /api/activities?type=`: every activity (of one type) and whether pushes are on.
    @Sendable func list(_ request: Request, context: MarqueeRequestContext) async throws -> ActivityList {
        ActivityList(activities: await center.list(type: request.uri.queryParameters.get("type")), pushes: pushStatus)
    }

    /// `POST /api/activities`: `201` with the started activity.
    @Sendable func start(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let body = try await request.decode(as: StartRequest.self, context: context)
        if let attributes = body.attributes { try ActivityFieldsShape.checkAttributes(attributes) }
        try ActivityFieldsShape.check(body.contentState, field: "contentState")
        let snapshot = try await center.request(
            type: body.type, attributes: body.attributes ?? .object([:]),
            content: ActivityContent(state: body.contentState, staleDate: body.staleDate, relevanceScore: body.relevanceScore ?? 0),
            start: body.startDate, alert: body.alert)
        return try snapshot.response(from: request, context: context).with(status: .created)
    }

    /// `POST /api/activities/premieres`: `201` with the premiere's countdown activity.
    @Sendable func schedulePremiere(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let body = try await request.decode(as: PremiereRequest.self, context: context)
        let snapshot = try await host.premieres.schedule(assetID: body.assetID, startsAt: body.startsAt, relevance: body.relevanceScore ?? 90)
        return try snapshot.response(from: request, context: context).with(status: .created)
    }

    @Sendable func registerPushToStartToken(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let body = try await request.decode(as: TokenRequest.self, context: context)
        guard let type = body.attributesType else { throw APIError(.badRequest, "attributesType is required: the activity type this token may start") }
        let token = try await center.registerPushToStartToken(
            body.token, deviceID: body.deviceID, attributesType: type, environment: body.environment ?? .production)
        return try token.response(from: request, context: context).with(status: .created)
    }

    @Sendable func pushToStartTokens(_ request: Request, context: MarqueeRequestContext) async throws -> Tokens<PushToStartToken> {
        Tokens(tokens: try await center.pushToStartTokens(deviceID: request.uri.queryParameters.get("deviceID")))
    }

    @Sendable func deletePushToStartToken(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let token = try context.parameters.require("token").lowercased()
        guard try await center.deletePushToStartToken(token) else { throw APIError(.notFound, "No push-to-start token \(token)") }
        return Response(status: .noContent)
    }

    @Sendable func pushTokens(_ request: Request, context: MarqueeRequestContext) async throws -> Tokens<ActivityPushToken> {
        guard let device = request.uri.queryParameters.get("deviceID") else {
            throw APIError(.badRequest, "Give ?deviceID= to list a device's push tokens")
        }
        return Tokens(tokens: try await center.pushTokens(deviceID: device))
    }

    @Sendable func deletePushToken(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let token = try context.parameters.require("token").lowercased()
        guard try await center.deletePushToken(token) else { throw APIError(.notFound, "No push token \(token)") }
        return Response(status: .noContent)
    }

    @Sendable func channels(_ request: Request, context: MarqueeRequestContext) async throws -> Channels {
        Channels(channels: try await center.channels())
    }

    /// `POST /api/activities/channels`: APNs creates a broadcast channel; `409` without APNs.
    @Sendable func createChannel(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let body = try await request.decode(as: ChannelRequest.self, context: context)
        guard let client = host.client else { throw APIError(.conflict, host.pushesOffReason ?? LiveActivityHost.notConfigured) }
        if let activityID = body.activityID { _ = try await center.snapshot(id: activityID) }
        let environment = body.environment ?? .production
        let id = try await client.createChannel(storagePolicy: body.storagePolicy ?? 0, environment: environment == .sandbox ? .sandbox : .production)
        let channel = BroadcastChannel(
            id: id, environment: environment, storagePolicy: body.storagePolicy ?? 0, activityID: body.activityID,
            createdAt: await center.currentDate)
        try await center.save(channel)
        return try channel.response(from: request, context: context).with(status: .created)
    }

    @Sendable func deleteChannel(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let raw = try context.parameters.require("channel")
        let id = raw.removingPercentEncoding ?? raw
        guard let channel = try await center.channel(id: id) else { throw APIError(.notFound, "No broadcast channel \(id)") }
        if let client = host.client {
            try await client.deleteChannel(id: id, environment: channel.environment == .sandbox ? .sandbox : .production)
        }
        try await center.deleteChannel(id: id)
        return Response(status: .noContent)
    }

    @Sendable func activity(_ request: Request, context: MarqueeRequestContext) async throws -> ActivitySnapshot {
        try await center.snapshot(id: try context.parameters.require("id"))
    }

    @Sendable func outcomes(_ request: Request, context: MarqueeRequestContext) async throws -> Outcomes {
        let id = try context.parameters.require("id")
        _ = try await center.snapshot(id: id)
        return Outcomes(outcomes: try await center.outcomes(activityID: id))
    }

    /// `POST /api/activities/{id}/update`: a new content state; the outcome says whether it was pushed.
    @Sendable func update(_ request: Request, context: MarqueeRequestContext) async throws -> Outcome {
        let id = try context.parameters.require("id")
        let body = try await request.decode(as: UpdateRequest.self, context: context)
        try ActivityFieldsShape.check(body.contentState, field: "contentState")
        let current = try await center.snapshot(id: id)
        let relevance = body.relevanceScore ?? current.activity.content.relevanceScore
        let outcome = try await center.update(
            id: id, content: ActivityContent(state: body.contentState, staleDate: body.staleDate, relevanceScore: relevance),
            alert: body.alert, timestamp: body.timestamp)
        return Outcome(outcome: outcome.rawValue, activity: try await center.snapshot(id: id))
    }

    /// `POST /api/activities/{id}/end`: ends it, with a final state and a dismissal policy.
    @Sendable func end(_ request: Request, context: MarqueeRequestContext) async throws -> Outcome {
        let id = try context.parameters.require("id")
        let body = try await request.decode(as: EndRequest.self, context: context)
        if let state = body.contentState { try ActivityFieldsShape.check(state, field: "contentState") }
        let policy: DismissalPolicy
        switch body.dismissalPolicy ?? "default" {
        case "default": policy = .default
        case "immediate": policy = .immediate
        case "after":
            guard let date = body.dismissalDate else { throw APIError(.badRequest, "dismissalPolicy after needs a dismissalDate") }
            policy = .after(date)
        case let other: throw APIError(.badRequest, "dismissalPolicy is default, immediate or after, not \(other)")
        }
        let current = try await center.snapshot(id: id)
        let content = body.contentState.map {
            ActivityContent(state: $0, staleDate: body.staleDate, relevanceScore: body.relevanceScore ?? current.activity.content.relevanceScore)
        }
        let outcome = try await center.end(id: id, content: content, dismissalPolicy: policy, timestamp: body.timestamp)
        return Outcome(outcome: outcome.rawValue, activity: try await center.snapshot(id: id))
    }

    @Sendable func delete(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await center.delete(id: try context.parameters.require("id"))
        return Response(status: .noContent)
    }

    @Sendable func registerPushToken(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let body = try await request.decode(as: TokenRequest.self, context: context)
        let token = try await center.registerPushToken(
            body.token, activityID: id, deviceID: body.deviceID, environment: body.environment ?? .production)
        return try token.response(from: request, context: context).with(status: .created)
    }

    static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    /// Every activity now, then each change, as Server-Sent Events: `event: activity` with a
    /// snapshot, `event: dismissed` with `{"id": …}`; first a `snapshot` event with the list.
    func events(_ context: MarqueeRequestContext) -> Response {
        let center = host.center
        let encoder = context.responseEncoder
        return EventStream<ActivityEvent>(
            retry: .seconds(1), heartbeat: heartbeat,
            subscribe: { await center.events() },
            opening: { try EventStream<ActivityEvent>.frame("snapshot", await center.list(), encoder: encoder) },
            render: { event in
                switch event {
                case .dismissed(let id):
                    return try EventStream<ActivityEvent>.frame("dismissed", ["id": id], encoder: encoder)
                default:
                    guard let snapshot = event.snapshot else { return nil }
                    var frame = try EventStream<ActivityEvent>.frame("activity", snapshot, encoder: encoder)
                    if case .updated(_, alerted: true) = event { frame += try EventStream<ActivityEvent>.frame("alert", snapshot, encoder: encoder) }
                    return frame
                }
            }
        ).response
    }
}
