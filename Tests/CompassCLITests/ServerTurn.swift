import Testing

/// Who may use the test's PostgreSQL server at once: a test that only makes its own database
/// shares the server with every other such test; a test that kills or restarts the server, or
/// changes a setting every database sees, has it alone.
///
/// On ``PostgresStoreTests`` as `.serverTurn(.shared)` it reaches every test nested there; a test
/// marked `.serverTurn(.alone)` waits until the shared tests running have ended, and tests that
/// come after it wait for it (first come, first served, so it is never starved).
struct ServerTurn: TestTrait, SuiteTrait, TestScoping {
    /// How a test uses the server.
    enum Use: Sendable { case shared, alone }

    let use: Use

    var isRecursive: Bool { true }

    /// One scope per test case; a test marked `.alone` takes only that turn, not also the
    /// shared one its suite hands down.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        guard testCase != nil else { return nil }
        if use == .shared, test.traits.contains(where: { ($0 as? ServerTurn)?.use == .alone }) { return nil }
        return self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await ServerGate.shared.enter(use)
        do {
            try await function()
        } catch {
            await ServerGate.shared.leave(use)
            throw error
        }
        await ServerGate.shared.leave(use)
    }
}

extension Trait where Self == ServerTurn {
    /// The test's turn at the PostgreSQL server (``ServerTurn``).
    static func serverTurn(_ use: ServerTurn.Use) -> Self { ServerTurn(use: use) }
}

/// A first-come, first-served readers–writer gate that suspends rather than blocks.
actor ServerGate {
    static let shared = ServerGate()

    private var sharing = 0
    private var alone = false
    private var waiting: [(use: ServerTurn.Use, resume: CheckedContinuation<Void, Never>)] = []

    func enter(_ use: ServerTurn.Use) async {
        if waiting.isEmpty, admits(use) {
            take(use)
            return
        }
        await withCheckedContinuation { waiting.append((use, $0)) }
    }

    func leave(_ use: ServerTurn.Use) {
        if use == .alone { alone = false } else { sharing -= 1 }
        while let next = waiting.first, admits(next.use) {
            waiting.removeFirst()
            take(next.use)
            next.resume.resume()
        }
    }

    private func admits(_ use: ServerTurn.Use) -> Bool {
        use == .alone ? !alone && sharing == 0 : !alone
    }

    private func take(_ use: ServerTurn.Use) {
        if use == .alone { alone = true } else { sharing += 1 }
    }
}
