public import Testing

/// Waits until `condition` holds, checking it every `interval` of real time.
///
/// For a test that waits on something another task, process or server does (a job finishes,
/// a notice arrives, a link closes): a fixed sleep would be too short on a loaded machine and
/// needlessly long on an idle one. A passing run returns as soon as the condition holds, so
/// `limit` only bounds a failing run and is generous: a full parallel `swift test` on two
/// cores once took more than 5 s to reach a state that takes milliseconds alone.
///
/// When `limit` runs out, the condition is checked one last time; if it still fails, the wait
/// records an issue at the caller's line that names `what` and how long it waited, and throws,
/// so the test stops there instead of failing further on for a reason that hides this one.
/// Errors thrown by `condition` end the wait at once.
///
/// - Parameters:
///   - what: what the test waits for, named in the failure ("timed out after 30.0 seconds waiting for: …").
///   - limit: how long to wait before failing, in real (continuous clock) time.
///   - interval: the pause between two checks.
///   - condition: the state to wait for; runs on the caller's actor.
public func eventually(
    _ what: String, within limit: Duration = .seconds(30), pollingEvery interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: interval)  // the pause between checks, not a wait for a result
    }
    let heldInTime = try await condition()
    try #require(heldInTime, "timed out after \(limit) waiting for: \(what)", sourceLocation: sourceLocation)
}

/// Waits until `produce` gives a value, and returns it; like `eventually(_:within:pollingEvery:_:)`
/// for a wait whose result the test goes on with (a pending pairing, a claimed job).
///
/// - Parameters:
///   - what: what the test waits for, named in the failure ("timed out after 30.0 seconds waiting for: …").
///   - limit: how long to wait before failing, in real (continuous clock) time.
///   - interval: the pause between two calls of `produce`.
///   - produce: gives the value once it is there, `nil` until then; runs on the caller's actor.
/// - Returns: the first value `produce` gave.
public func eventuallyValue<Value>(
    _ what: String, within limit: Duration = .seconds(30), pollingEvery interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
    _ produce: () async throws -> Value?
) async throws -> Value {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if let value = try await produce() { return value }
        try await Task.sleep(for: interval)  // the pause between checks, not a wait for a result
    }
    let valueInTime = try await produce()
    return try #require(valueInTime, "timed out after \(limit) waiting for: \(what)", sourceLocation: sourceLocation)
}
