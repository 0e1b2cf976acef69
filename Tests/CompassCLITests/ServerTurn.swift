import Foundation
import Testing

/// Who may use the test's PostgreSQL server at once: a test that only makes its own database
/// shares the server with every other such test; a test that kills or restarts the server, or
/// changes a setting every database sees, has it alone.
///
/// On ``PostgresStoreTests`` as `.serverTurn(.shared)` it reaches every test nested there; a test
/// marked `.serverTurn(.alone)` waits until the shared tests running have ended, and tests that
/// come after it wait for it (first come, first served, so it is never starved). Each test's
/// body runs on a thread of its own (``ThreadPerJobExecutor``), not on one of the cooperative
/// pool's two.
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
            try await withoutActuallyEscaping(function) { function in
                try await Task(executorPreference: ThreadPerJobExecutor.shared) {
                    try await function()
                }.value
            }
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

/// Runs each job on a thread of its own, off Swift's cooperative pool: a database test spends
/// most of its time waiting for the server, and on the pool's two threads it would keep a
/// test that computes from running.
final class ThreadPerJobExecutor: TaskExecutor, Sendable {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.name = "server-turn"
        thread.stackSize = 8 << 20
        thread.start()
    }
}
