import CompassCore

/// The tool's door into the store: whole-log reads with every option the commands need,
/// `verify` with its problem stream, a batch import and the feed `follow` polls. The
/// command-line layer reaches the log only through these (and the public API); the reader,
/// writer, feed and verifier behind them are the store's own.
extension CompassStore {
    /// For measuring only: when PostgreSQL appends wake feeds (`transaction`, the default;
    /// `after` the commit; `off`). Call before any store is opened; false for another word.
    @discardableResult
    package static func measureDatabaseNotifications(_ mode: String) -> Bool {
        guard let chosen = PostgresLogBackend.NotifyMode(rawValue: mode) else { return false }
        PostgresLogBackend.notify = chosen
        return true
    }

    /// How one whole read of the committed log runs.
    package struct ReadOptions {
        /// Where the read stops (`--as-of`, `--at-seq`).
        package var cut = ReplayCut()
        /// How much of the state the caller reads (a query: its viewer's family).
        package var scope: ReplayScope = .everything
        /// Where problems go, or how many are kept.
        package var problems: ProblemRetention = .all
        /// Called as the read goes (a terminal's progress meter).
        package var progress: ReadProgress?
        /// Called with every line's outcome (then the whole log is read, no snapshot).
        package var observer: ((LineOutcome, CompassState) -> Void)?
        /// Whether the caller reads no interaction's text from the state (counts only, as
        /// `compass replay` and `compass analytics` without `--search`): a file store then
        /// leaves subjects and contents in the log (``Replayer/textsStayInLog``), and its
        /// snapshot keeps them as their ranges there.
        package var readsNoTexts = false

        package init(cut: ReplayCut = ReplayCut(), scope: ReplayScope = .everything, problems: ProblemRetention = .all,
                     progress: ReadProgress? = nil, observer: ((LineOutcome, CompassState) -> Void)? = nil) {
            self.cut = cut
            self.scope = scope
            self.problems = problems
            self.progress = progress
            self.observer = observer
        }
    }

    /// Replays the committed log once, from its snapshot when the store keeps them and the
    /// options allow; a log that does not exist reads as empty.
    package func replay(_ options: ReadOptions = ReadOptions()) throws(StoreError) -> Replayer {
        try backend.replay(options)
    }

    /// For measuring `verify`'s comparison alone (`compass-bench snapshot-check`): whether the
    /// stored snapshot is the one `replayer`'s state encodes; nil when there is none.
    package func storedSnapshotMatches(_ replayer: Replayer) throws(StoreError) -> Bool? {
        try backend.storedSnapshotMatches(replayer.snapshot)
    }

    /// `verify`, every problem handed to `problems` as it is found.
    package func verify(expectHead: String?, problems: (@Sendable (Problem) -> Void)?,
                        progress: ReadProgress?) throws(StoreError) -> VerifyReport {
        try backend.verify(expectHead: expectHead, problems: problems, progress: progress)
    }

    /// Imports a file's lines (`import`), all or nothing: every rejected line is reported
    /// and nothing is written. Each backend imports by its own bulk write
    /// (``LogBackend/importLines(from:expectVersion:progress:)``).
    package func importLines(from source: inout some ImportSource, expectVersion: Int64?,
                             progress: ReadProgress?) throws(StoreError) -> ImportSummary {
        lock.lock()
        defer { lock.unlock() }
        return try backend.importLines(from: &source, expectVersion: expectVersion, progress: progress)
    }

    /// Restores whole family streams byte for byte (`import --restore FILE`): a family's
    /// history as `export --stream` wrote it, its erasure records included, into a store that
    /// has no line of that family, so every head and erasure proof of the copy holds in the
    /// store. All or nothing; every problem is reported by its line. The blobs the lines name
    /// must be beside the file (`FILE.attachments/HASH`), as `import` takes them.
    package func restore(_ input: [UInt8], importedFile: String?) throws(StoreError) -> ImportSummary {
        lock.lock()
        defer { lock.unlock() }
        // The payloads that name blobs, by line (read alone: the backend checks the lines).
        var named: [(line: Int, payload: Payload)] = []
        input.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &ranges)
            for (index, range) in ranges.enumerated() {
                let prepared = PreparedLine(UnsafeBufferPointer(rebasing: buffer[range]), hashing: false)
                if case .draft(_, .success(let payload)) = prepared.content { named.append((index + 1, payload)) }
            }
        }
        var blobs: [StagedAttachment] = [], seen: Set<String> = [], refused: [Problem] = []
        for (line, payload) in named {
            switch try importableBlobs(of: payload, own: seen, importedFile: importedFile) {
            case .success(let staged):
                for blob in staged where seen.insert(blob.sha256).inserted { blobs.append(blob) }
            case .failure(let error):
                refused.append(Problem(line: line, message: error.message, kind: error.kind))
            }
        }
        return try backend.restore(input, blobs: blobs, refused: refused)
    }

    /// The bytes an imported line needs (an interaction's attachments, a document's file),
    /// or why the line may not be appended.
    ///
    /// Import never trusts a hash: each must name bytes the family's own lines already name
    /// and the store holds, or bytes supplied beside the imported file (`FILE.attachments/HASH`,
    /// the layout of a log's own folder) that hash to it, which are then stored with the
    /// batch. A hash of another family's bytes is "not in this family's store", so no family
    /// can reach, or keep from erasure, another's file.
    ///
    /// - Parameters:
    ///   - own: the family's ``Family/attachmentHashes``.
    ///   - importedFile: the imported file's path (nil for standard input: nothing beside it).
    package func importableBlobs(of payload: Payload, own: Set<String>,
                                 importedFile: String?) throws(StoreError) -> Result<[StagedAttachment], EventError> {
        let named: [Attachment]
        var maxBytes = AttachmentRules.maxSizeBytes
        switch payload {
        case .interactionLogged(let logged): named = logged.attachments ?? []
        case .documentUploaded(let document):
            named = document.sha256.map { [Attachment(name: document.fileName ?? document.documentId, sizeBytes: document.sizeBytes ?? 0,
                                                      mimeType: "", sha256: $0)] } ?? []
            maxBytes = AttachmentStore.maxDocumentBytes
        default: named = []
        }
        let supplied = importedFile.map { AttachmentStore(logPath: $0) }
        var staged: [StagedAttachment] = []
        for attachment in named {
            guard let sha = attachment.sha256 else { continue }
            if own.contains(sha), try backend.hasBlob(sha) { continue }
            let refusal = EventError("attachment \(sha) is not in this family's store, nor beside the imported file", kind: .notFound)
            guard let supplied, try fs.kind(of: supplied.path(for: sha)) == .regular,
                  try AttachmentStore.describe(supplied.path(for: sha), fs: fs).size <= maxBytes,
                  let bytes = try fs.readFile(supplied.path(for: sha)), SHA256.hex(bytes) == sha else { return .failure(refusal) }
            staged.append(StagedAttachment(name: attachment.name, bytes: bytes, mimeType: attachment.mimeType, sha256: sha))
        }
        return .success(staged)
    }

    /// Stores blobs with the log (an import's, before its lines are written); returns what
    /// takes back the new ones.
    package func saveBlobs(_ staged: [StagedAttachment]) throws(StoreError) -> () -> Void {
        try backend.saveBlobs(staged)
    }

    /// A feed of every family's new events, polled by its owner (`project`, which reads the
    /// store again after each wake-up).
    package func feed() throws(StoreError) -> ChangeFeed {
        ChangeFeed(try backend.changes(scope: .summary, after: nil))
    }

    /// A feed of the events the log gains from now on, polled by its owner (`follow`); its
    /// state holds `viewer`'s family from the start.
    package func feed(for viewer: String) throws(StoreError) -> ChangeFeed {
        ChangeFeed(try backend.changes(scope: .familyOf(viewer), after: nil))
    }
}

/// The events a log gains, poll by poll, and the state they build: `follow`'s view of the
/// store's feed (an app uses ``CompassStore/changes(every:)``).
package struct ChangeFeed {
    private var feed: any ChangeSource

    init(_ feed: any ChangeSource) { self.feed = feed }

    /// The state after the last poll.
    package var state: CompassState { feed.state }

    /// Whether the log exists (has been opened).
    package var isOpen: Bool { feed.isOpen }

    /// The events committed since the last call, in log order.
    package mutating func next() throws(StoreError) -> [Event] { try feed.next() }

    /// Blocks until the log may have changed (true) or `timeout` passes (false).
    @discardableResult
    package func wait(upTo timeout: Duration) -> Bool { feed.wait(upTo: timeout) }
}
