import CompassCore

/// The log as one JSON-lines file with its side files (``StoreFiles``): the embedded default
/// of an iPhone, a laptop or one server. Appends take the file's exclusive lock
/// (``LogWriter``); reads follow the committed extent (``LogTail``, ``LogReader``); erasure
/// rewrites the file in one rename; blobs live in `LOG.attachments/` by content hash.
final class FileLogBackend: LogBackend {
    let path: String
    let fs: FileSystem
    private let snapshots: SnapshotPolicy?
    private let writer: LogWriter

    init(path: String, fs: FileSystem, snapshots: SnapshotPolicy?) {
        self.path = path
        self.fs = fs
        self.snapshots = snapshots
        self.writer = LogWriter(path: path, snapshots: snapshots, fileSystem: fs)
    }

    var location: String { path }
    /// A file is its own primary.
    var primaryAddress: String? { nil }

    func replaceLog(_ make: ([UInt8]) throws(StoreError) -> [UInt8], committed: () throws(StoreError) -> Void) throws(StoreError) {
        try writer.replace(make, committed: committed)
    }

    /// Whether there is a log: a folder at the path is an error, not "no log".
    func exists() throws(StoreError) -> Bool {
        switch try fs.kind(of: path) {
        case .missing: return false
        case .directory: throw .io(path: path, message: "\(path) is a directory, not a log")
        case .regular, .link, .other: return true  // anything but a regular file is refused, without blocking, when opened
        }
    }

    func replay(_ options: CompassStore.ReadOptions) throws(StoreError) -> Replayer {
        try LogReader.replay(path: path, fs: fs, cut: options.cut, observer: options.observer, snapshots: snapshots,
                             scope: options.scope, problems: options.problems, progress: options.progress,
                             textsStayInLog: options.readsNoTexts)
    }

    func makeCursor() -> any LogCursor { LogTail(path: path, fs: fs) }

    func storedSnapshotMatches(_ snapshot: ReplaySnapshot) throws(StoreError) -> Bool? {
        guard let stored = try fs.open(path + ".snapshot", .read) else { return nil }
        defer { fs.close(stored) }
        guard let log = try fs.open(path, .read) else { throw .noLog(path: path) }
        defer { fs.close(log) }
        return try LogVerifier.storedSnapshot(stored, path: path + ".snapshot", equals: snapshot, log: (log, path),
                                              prefix: try fs.size(log, path: path), fs: fs)
    }

    func append(_ request: AppendRequest, build: DraftBuilder) throws(StoreError) -> AppendOutcome {
        try writer.append(eventId: request.eventId, expectVersion: request.expectVersion, actor: request.actor,
                          sanitizing: request.sanitizing, lineNumbers: request.lineNumbers, prebuilt: request.prebuilt,
                          beforeWrite: request.beforeWrite, progress: request.progress,
                          build: build)
    }

    func restore(_ input: [UInt8], blobs: [StagedAttachment], refused: [Problem]) throws(StoreError) -> ImportSummary {
        try writer.restore(input, blobs: blobs, refused: refused)
    }

    func erase(_ target: ErasureTarget, requester: String, at: Timestamp, eventId: String,
               dryRun: Bool) throws(StoreError) -> ErasureOutcome {
        try writer.erase(target, requester: requester, at: at, eventId: eventId, dryRun: dryRun)
    }

    func changeSignal() throws(StoreError) -> any FamilyChangeSignal { try feedChangeSignal() }

    func changes(scope: ReplayScope, after: (family: String, seq: Int64)?) throws(StoreError) -> any ChangeSource {
        if let after { return LogFeed(path: path, fs: fs, family: after.family, after: after.seq) }
        return try LogFeed(path: path, fs: fs, scope: scope)
    }

    func allLines() throws(StoreError) -> [UInt8] {
        guard let fd = try fs.open(path, .read) else { throw .noLog(path: path) }
        defer { fs.close(fd) }
        let extent = try LogExtent.measure(fd, path: path, fs: fs)
        var lines: [UInt8] = []
        lines.reserveCapacity(extent.complete)
        try LogReader.forEachLine(fd: fd, path: path, upTo: extent.complete, fs: fs) { line in
            lines += line
            lines.append(0x0A)
        }
        return lines
    }

    func familyLines(_ family: String) throws(StoreError) -> (lines: [UInt8], count: Int) {
        guard let fd = try fs.open(path, .read) else { throw .noLog(path: path) }
        defer { fs.close(fd) }
        let extent = try LogExtent.measure(fd, path: path, fs: fs)
        var lines: [UInt8] = []
        var count = 0
        var tape = JSONTape()
        let wanted = Array(family.utf8)
        try LogReader.forEachLine(fd: fd, path: path, upTo: extent.complete, fs: fs) { line in
            guard let base = line.baseAddress, tape.scan(line), let range = tape.plainStringRange(ofKey: "family", in: base),
                  line[range].elementsEqual(wanted) else { return }
            lines += line
            lines.append(0x0A)
            count += 1
        }
        return (lines, count)
    }

    func verify(expectHead: String?, problems: (@Sendable (Problem) -> Void)?,
                progress: ReadProgress?) throws(StoreError) -> VerifyReport {
        try LogVerifier.verify(path: path, fs: fs, expectHead: expectHead, problems: problems, progress: progress)
    }

    func blob(_ sha256: String) throws(StoreError) -> [UInt8]? {
        try fs.readFile(AttachmentStore(logPath: path).path(for: sha256), .readSide)
    }

    func hasBlob(_ sha256: String) throws(StoreError) -> Bool {
        try fs.kind(of: AttachmentStore(logPath: path).path(for: sha256)) == .regular
    }

    func saveBlobs(_ blobs: [StagedAttachment]) throws(StoreError) -> () -> Void {
        try AttachmentStore(logPath: path).save(blobs, fs: fs)
    }
}

extension FileLogBackend {
    /// `import` a block at a time (``LogWriter/importStream(_:expectVersion:sanitizing:progress:)``).
    /// A block at a time under the writers' lock and the batch's journal: the import holds one
    /// block's drafts and lines, not the file's.
    func importLines(from source: inout some ImportSource, expectVersion: Int64?, progress: ReadProgress?) throws(StoreError) -> ImportSummary {
        try writer.importStream(&source, expectVersion: expectVersion, progress: progress)
    }
}
