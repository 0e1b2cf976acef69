import CompassCore
import Dispatch
import Foundation

/// The store for Swift concurrency: every call's blocking work (reading the log, `fsync`, a
/// database round trip) runs on a dispatch queue of the store's own, never on a thread of
/// Swift's cooperative pool, so an actor or the main actor awaits it without stalling.
///
/// ```swift
/// let store = try await AsyncCompassStore.open(path: logURL.path)
/// let list = try await store.interactions(as: "u-maya")
/// try await store.append(.addSchool(AddSchool(name: "UCLA")), as: "u-pat")
/// for try await page in store.observe(as: "u-maya", { try $0.interactions(as: "u-maya") }) { show(page.value.items) }
/// ```
///
/// A call cancelled before its work starts throws ``StoreError/cancelled`` and does nothing;
/// the first read `open(path:preparing:progress:)` makes stops between blocks of the log when
/// its task is cancelled; any other read or append, once started, runs to its end (an append is then acknowledged or
/// not, never half done), and the result of a read whose task was cancelled meanwhile is
/// still returned. The blocking ``CompassStore`` stays available as ``store`` (the CLI's).
public struct AsyncCompassStore: Sendable {
    /// The blocking store underneath (one per log per process: share it).
    public let store: CompassStore

    /// Runs the blocking calls; concurrent, as the store orders its own reads and appends.
    private static let queue = DispatchQueue(label: "compass.store", qos: .userInitiated, attributes: .concurrent)

    public init(_ store: CompassStore) {
        self.store = store
    }

    /// Opens the store at `path` (a file, or a `postgresql://` address) off the cooperative
    /// pool. With `progress`, also makes the first read of `viewer`'s family (every family for
    /// nil) now, telling `progress` how many bytes of the log are read of how many (a big log
    /// without a snapshot takes seconds): the screen's first view is then fast. Cancelling the
    /// task stops that read between blocks of the log (``StoreError/cancelled``), as GRDB's
    /// async accesses check for cancellation.
    public static func open(path: String, createIfMissing: Bool = true,
                            configuration: CompassStore.Configuration = CompassStore.Configuration(),
                            preparing viewer: String? = nil,
                            progress: (@Sendable (_ read: Int, _ total: Int) -> Void)? = nil) async throws(StoreError) -> AsyncCompassStore {
        try await run { (cancelled: StopFlag) throws(StoreError) in
            let store = try CompassStore(path: path, createIfMissing: createIfMissing, configuration: configuration)
            if let progress { try store.prepare(as: viewer, progress: progress, isCancelled: { cancelled.isSet }) }
            return AsyncCompassStore(store)
        }
    }

    /// Runs `body` with the blocking store, off the cooperative pool: any read model, any call.
    public func read<T: Sendable>(_ body: @escaping @Sendable (CompassStore) throws(StoreError) -> T) async throws(StoreError) -> T {
        let store = store
        return try await Self.run { () throws(StoreError) in try body(store) }
    }

    /// Appends one command as `user` (see ``CompassStore/append(_:as:idempotencyKey:expectVersion:files:)``).
    @discardableResult
    public func append(_ command: Command, as user: String, idempotencyKey: String? = nil,
                       expectVersion: Int64? = nil) async throws(StoreError) -> Receipt {
        try await read { store throws(StoreError) in
            try store.append(command, as: user, idempotencyKey: idempotencyKey, expectVersion: expectVersion)
        }
    }

    /// Appends a batch, all or nothing (see ``CompassStore/append(batch:as:expectVersion:)``).
    @discardableResult
    public func append(batch commands: [Command], as user: String, expectVersion: Int64? = nil) async throws(StoreError) -> [Receipt] {
        try await read { store throws(StoreError) in try store.append(batch: commands, as: user, expectVersion: expectVersion) }
    }

    /// The interactions list and its analytics (SPEC §3.1) for `viewer`, as of the configured clock.
    public func interactions(as viewer: String, query: InteractionQuery = InteractionQuery()) async throws(StoreError) -> InteractionList {
        try await read { store throws(StoreError) in try store.interactions(as: viewer, query: query) }
    }

    /// A page of the activity timeline (SPEC §3.3) for `viewer`, as of the configured clock.
    public func activity(as viewer: String, query: ActivityQuery = ActivityQuery()) async throws(StoreError) -> ActivityPage {
        try await read { store throws(StoreError) in try store.activity(as: viewer, query: query) }
    }

    /// The version of `user`'s family (the `seq` of its last line).
    /// Every read model of `viewer`'s family from one read (``FamilyViews``): schools,
    /// coaches, members, documents, notifications, the list and its analytics, a detail, the
    /// timeline, the report; now, or as it was at `atSeq` / `asOf` (SPEC §4 time travel).
    public func views(as viewer: String, atSeq: Int64? = nil, asOf: Timestamp? = nil) async throws(StoreError) -> FamilyViews {
        try await read { store throws(StoreError) in try store.views(as: viewer, atSeq: atSeq, asOf: asOf) }
    }

    /// `viewer`'s views once their family holds at least `version` (see
    /// ``CompassStore/views(as:atLeast:)``): read-your-writes on a store that reads a standby.
    public func views(as viewer: String, atLeast version: Int64) async throws(StoreError) -> FamilyViews {
        try await read { store throws(StoreError) in try store.views(as: viewer, atLeast: version) }
    }

    /// The recruiting history the viewer may see (see ``CompassStore/audit(as:query:zone:)``).
    public func audit(as viewer: String, query: AuditQuery = AuditQuery(),
                      zone: TimeZone = TimeZone(secondsFromGMT: 0)!) async throws(StoreError) -> [AuditEntry] {
        try await read { store throws(StoreError) in try store.audit(as: viewer, query: query, zone: zone) }
    }

    /// An attachment's or a document's bytes, checked against their hash.
    public func attachmentBytes(_ attachment: Attachment) async throws(StoreError) -> [UInt8] {
        try await read { store throws(StoreError) in try store.attachmentBytes(attachment) }
    }

    public func version(as user: String) async throws(StoreError) -> Int64 {
        try await read { store throws(StoreError) in try store.version(as: user) }
    }

    /// A value of `viewer`'s family, observed: see ``CompassStore/observe(as:every:_:)``.
    public func observe<Value: Equatable & Sendable>(as viewer: String, every interval: Duration? = nil,
                                                      _ value: @escaping @Sendable (CompassStore) throws -> Value)
        -> AsyncThrowingStream<Observed<Value>, any Error> {
        store.observe(as: viewer, every: interval, value)
    }

    /// Runs blocking work on the store's queue; ``StoreError/cancelled`` if the task was
    /// cancelled before it started.
    private static func run<T: Sendable>(_ work: @escaping @Sendable () throws(StoreError) -> T) async throws(StoreError) -> T {
        try await run { (_: StopFlag) throws(StoreError) -> T in try work() }
    }

    /// ``run(_:)`` handing `work` the flag its task's cancellation sets (a long read checks it).
    private static func run<T: Sendable>(_ work: @escaping @Sendable (StopFlag) throws(StoreError) -> T) async throws(StoreError) -> T {
        let cancelled = StopFlag()
        let result: Result<T, StoreError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    if cancelled.isSet { return continuation.resume(returning: .failure(.cancelled)) }
                    continuation.resume(returning: Result { () throws(StoreError) -> T in try work(cancelled) })
                }
            }
        } onCancel: {
            cancelled.set()
        }
        return try result.get()
    }
}
