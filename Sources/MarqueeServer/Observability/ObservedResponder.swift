import Foundation
import Hummingbird
import Logging

/// Stands in front of everything a request meets (the path's canonical form, the router and
/// its middleware) and, for every request the router answers: names it with a request id
/// (`X-Request-ID`, kept from a proxy when sane, `RequestID`) that goes into the answer and
/// into the metadata of every log line written while answering it; counts it in the metrics
/// by route template, method and status, with its duration and bytes; and writes one access
/// log line when its body has been sent (method, path, route, status, bytes, duration).
struct ObservedResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: RequestContext {
    typealias Context = Inner.Context
    let inner: Inner
    let metrics: ServerMetrics
    /// Where access log lines go (`marquee.access`); nil writes none.
    let accessLog: Logger?

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let id = RequestID.forRequest(incoming: request.headers[RequestID.headerName])
        var context = context
        context.logger[metadataKey: "hb.request.id"] = nil
        context.logger[metadataKey: "request.id"] = .string(id)
        let route = context.coreContext.endpointPath
        let record = Record(
            metrics: metrics, accessLog: accessLog, id: id, method: request.method, path: request.uri.path, started: started)
        var response: Response
        do {
            response = try await inner.respond(to: request, context: context)
        } catch {
            // The router answers every error it knows; Hummingbird answers the rest 500.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record.finished(route: route.value, status: status, bytes: 0)
            throw error
        }
        response.headers[RequestID.headerName] = id
        let status = response.status.code
        let bytes = request.method == .head ? 0 : Int(response.headers[.contentLength] ?? "") ?? response.body.contentLength ?? 0
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                record.finished(route: route.value, status: status, bytes: 0)
                throw error
            }
            record.finished(route: route.value, status: status, bytes: bytes)
        }
        return response
    }

    /// What is counted and logged once a request's answer has gone.
    struct Record: Sendable {
        let metrics: ServerMetrics
        let accessLog: Logger?
        let id: String
        let method: HTTPRequest.Method
        let path: String
        let started: ContinuousClock.Instant

        func finished(route: String?, status: Int, bytes: Int) {
            let duration = started.duration(to: .now)
            metrics.recordRequest(route: route, method: method, status: status, bytes: bytes, duration: duration)
            guard let accessLog, accessLog.logLevel <= .info else { return }
            let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
            accessLog.info(
                "\(method) \(path) \(status)",
                metadata: [
                    "request.id": .string(id), "method": .string(method.rawValue), "path": .string(path),
                    "route": .string(ServerMetrics.routeLabel(route)), "status": .stringConvertible(status),
                    "bytes": .stringConvertible(bytes), "ms": .string(String(format: "%.2f", milliseconds)),
                ])
        }
    }
}

/// A router whose responder is an `ObservedResponder` in front of the router's own.
struct ObservedRouter<Builder: HTTPResponderBuilder>: HTTPResponderBuilder where Builder.Responder.Context: RequestContext {
    let router: Builder
    let metrics: ServerMetrics
    let accessLog: Logger?

    func buildResponder() -> ObservedResponder<Builder.Responder> {
        ObservedResponder(inner: router.buildResponder(), metrics: metrics, accessLog: accessLog)
    }
}
