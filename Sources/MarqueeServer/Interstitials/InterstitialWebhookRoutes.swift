import Foundation
import Hummingbird

/// `GET|PUT /api/settings/interstitial-webhooks`: the URLs the server tells of every break's
/// will-present and did-finish, the POST timeout and the retries; GET also lists the recent
/// deliveries that failed for good. Owner-only (the URLs may carry secrets, and the server
/// POSTs to them).
struct InterstitialWebhookRoutes: Sendable {
    let webhooks: InterstitialWebhooks

    struct Answer: ResponseEncodable, Sendable {
        var urls: [String]
        var timeoutSeconds: Double
        var retries: Int
        var recentFailures: [InterstitialWebhookFailure]
    }

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.get("settings/interstitial-webhooks") { _, _ -> Answer in
            await answer()
        }
        api.put("settings/interstitial-webhooks") { request, context -> Answer in
            let settings = try await request.decode(as: InterstitialWebhookSettings.self, context: context)
            if let problem = settings.problem { throw APIError(.badRequest, problem) }
            do {
                try await webhooks.set(settings)
            } catch {
                throw APIError(.internalServerError, "Could not save the webhook settings: \(error)")
            }
            return await answer()
        }
    }

    private func answer() async -> Answer {
        let settings = await webhooks.current()
        return Answer(
            urls: settings.urls, timeoutSeconds: settings.timeoutSeconds, retries: settings.retries,
            recentFailures: await webhooks.recentFailures)
    }
}
