import CompassCore
import Foundation

/// `verify`: reads the whole committed log once, checking a snapshot on the way.
package enum LogVerifier {
    /// - Parameter problems: where every problem goes as it is found (the CLI's spool); the
    ///   report keeps their summary.
    package static func verify(path: String, fs: FileSystem, expectHead: String?,
                               problems: (@Sendable (Problem) -> Void)?, progress: ReadProgress? = nil) throws(StoreError) -> VerifyReport {
        guard let fd = try fs.open(path, .read) else { throw .noLog(path: path) }
        defer { fs.close(fd) }
        let extent = try LogExtent.measure(fd, path: path, fs: fs)
        let watch = ChainWatch()
        var replayer = Replayer(problems: .forward { problem in
            if problem.kind == .chain { watch.note(problem.line) }
            problems?(problem)
        })
        // No text is shown or written: subjects and contents stay in the log (a snapshot's
        // sections take theirs from the log when they are compared).
        replayer.textsStayInLog = true
        let snapshot = try checkSnapshot(log: fd, path: path, extent: extent, fs: fs, replayer: &replayer)
        try LogReader.stream(fd: fd, path: path, from: replayer.consumedBytes, extent: extent, fs: fs, into: &replayer, progress: progress)
        let store = AttachmentStore(logPath: path)
        return try report(replayer, firstChainLine: watch.first, snapshot: snapshot, expectHead: expectHead,
                          blob: { sha throws(StoreError) in try fs.readFile(store.path(for: sha), .readSide) },
                          eachLine: { body throws(StoreError) in try LogReader.forEachLine(fd: fd, path: path, upTo: extent.complete, fs: fs, body) })
    }

    /// `verify` of lines held in memory.
    package static func verify(lines: [UInt8], expectHead: String?, problems: (@Sendable (Problem) -> Void)?,
                               blob: (String) throws(StoreError) -> [UInt8]?) throws(StoreError) -> VerifyReport {
        try verify(blocks: { (body) throws(StoreError) in body(lines) }, expectHead: expectHead, problems: problems, blob: blob)
    }

    /// `verify` of lines read in blocks of whole lines (a database backend's, in their order):
    /// `blocks` hands each block to its argument, the same blocks every time it is called, so
    /// no more than a block is held beside the state.
    package static func verify(blocks: (([UInt8]) -> Void) throws(StoreError) -> Void, expectHead: String?,
                               problems: (@Sendable (Problem) -> Void)?,
                               blob: (String) throws(StoreError) -> [UInt8]?) throws(StoreError) -> VerifyReport {
        let watch = ChainWatch()
        var replayer = Replayer(problems: .forward { problem in
            if problem.kind == .chain { watch.note(problem.line) }
            problems?(problem)
        })
        try blocks { replayer.consume(bytes: $0) }
        return try report(replayer, firstChainLine: watch.first, snapshot: .none, expectHead: expectHead, blob: blob,
                          eachLine: { body throws(StoreError) in
                              try withoutActuallyEscaping(body) { (body) throws(StoreError) in
                                  try blocks { block in
                                      block.withUnsafeBufferPointer { buffer in
                                          var ranges: [Range<Int>] = []
                                          LineSplitter.completeLines(in: buffer, from: 0, to: buffer.count, into: &ranges)
                                          for range in ranges { body(UnsafeBufferPointer(rebasing: buffer[range])) }
                                      }
                                  }
                              }
                          })
    }

    /// The report of a finished replay: the chains, heads and root, blobs, and every erasure
    /// walked (`eachLine` reads every complete line again, in order, when that is needed).
    static func report(_ replayer: Replayer, firstChainLine: Int?, snapshot: VerifyReport.SnapshotCheck, expectHead: String?,
                       blob: (String) throws(StoreError) -> [UInt8]?,
                       eachLine: ((UnsafeBufferPointer<UInt8>) -> Void) throws(StoreError) -> Void) throws(StoreError) -> VerifyReport {
        let completeLines = replayer.linesRead - (replayer.tornLine == nil ? 0 : 1)
        let chain: VerifyReport.Chain
        if let broken = firstChainLine {
            chain = .broken(atLine: broken)
        } else if completeLines == 0 {
            chain = .empty
        } else if replayer.sealedLines == 0 {
            chain = .unsealed
        } else {
            chain = .intact(sealed: replayer.sealedLines, lines: completeLines)
        }
        let (checked, blobProblems) = try checkAttachments(replayer.state, blob: blob)
        let families = replayer.streams.sorted.map { FamilyHead(family: $0.family, seq: $0.seq, head: $0.head.text) }
        let root = replayer.streams.root
        let current = expectHead.map { expected in expected == root || families.contains { $0.head == expected } }
        var report = VerifyReport(lines: replayer.linesRead, applied: replayer.state.appliedCount, chain: chain, families: families,
                                  root: root, headMatches: current, snapshot: snapshot,
                                  problems: replayer.problemSummary, tornLine: replayer.tornLine,
                                  attachmentsChecked: checked, attachmentProblems: blobProblems)
        let state = replayer.state
        let erased = state.erasedLineCount > 0 || (state.countsByType[.erasureRecorded] ?? 0) > 0
        if erased || current == false {
            // Every family's chain of written hashes, walked through every erasure (SPEC §5),
            // looking for a kept head or root that is not the log's current one.
            var proof = ErasureProof(seeking: current == false ? expectHead : nil)
            try eachLine { proof.consume(line: $0) }
            report.erasures = proof.steps
            report.erasedCountsAgree = proof.erasedCountsAgree
            if current == false {
                report.headMatches = proof.found
                report.expectedHeadProvenBy = expectHead.flatMap { proof.proof(of: $0) }
            }
        }
        return report
    }

    /// Every blob an applied interaction (deleted ones too: their lines still point at the
    /// bytes) or document references, read and hashed once each. Only a blob that does not exist is
    /// "missing"; one that cannot be read stops `verify` with the error.
    static func checkAttachments(_ state: CompassState, blob: (String) throws(StoreError) -> [UInt8]?) throws(StoreError) -> (Int, [AttachmentProblem]) {
        enum Verdict { case whole, corrupt, missing }
        var verdicts: [String: Verdict] = [:]
        var problems: [AttachmentProblem] = []
        func check(_ sha: String, owner: String, name: String) throws(StoreError) {
            let verdict: Verdict
            if let known = verdicts[sha] {
                verdict = known
            } else if let bytes = try blob(sha) {
                verdict = SHA256.hex(bytes) == sha ? .whole : .corrupt
            } else {
                verdict = .missing
            }
            verdicts[sha] = verdict
            if verdict != .whole {
                problems.append(AttachmentProblem(interactionId: owner, name: name, sha256: sha, missing: verdict == .missing))
            }
        }
        for family in state.families.values {
            try family.interactions.forEachHashedAttachmentList { (interactionId, attachments) throws(StoreError) in
                for attachment in attachments {
                    if let sha = attachment.sha256 { try check(sha, owner: interactionId, name: attachment.name) }
                }
            }
            // A document's bytes (v3) are checked like an attachment's.
            for record in family.documents.values {
                if let sha = record.document.sha256 {
                    try check(sha, owner: record.document.documentId, name: record.document.fileName ?? record.document.title)
                }
            }
        }
        problems.sort { ($0.interactionId, $0.name) < ($1.interactionId, $1.name) }
        return (verdicts.count, problems)
    }

    /// Replays the prefix a snapshot covers and compares the snapshot it would write with the
    /// one on disk, byte for byte (snapshots are encoded deterministically). The replay goes
    /// on from there, so the log is still read once.
    static func checkSnapshot(log fd: Int32, path: String, extent: LogExtent, fs: FileSystem,
                              replayer: inout Replayer) throws(StoreError) -> VerifyReport.SnapshotCheck {
        let snapshotPath = StoreFiles(log: path).snapshot
        guard try fs.kind(of: snapshotPath) != .missing else { return .none }
        guard let file = SnapshotFile(path: snapshotPath, fs: fs), try file.matches(log: fd, path: path, extent: extent, fs: fs),
              let stored = try fs.open(snapshotPath, .readSide) else {
            try? fs.remove(snapshotPath)
            return .stale
        }
        defer { fs.close(stored) }
        let prefix = file.index.base.consumedBytes
        try LogReader.stream(fd: fd, path: path, from: 0, extent: LogExtent(complete: prefix, torn: false), fs: fs, into: &replayer)
        guard try storedSnapshot(stored, path: snapshotPath, equals: replayer.snapshot, log: (fd, path), prefix: prefix, fs: fs) else {
            try? fs.remove(snapshotPath)
            return .mismatched
        }
        return .verified
    }

    /// Whether the stored snapshot is byte for byte what `expected` encodes to.
    ///
    /// The family sections, most of the bytes, are compared on every core as the log's
    /// `prefix` is read again for the texts the replay left there (``SectionComparison``).
    /// The header, ids, directory and preamble are compared in order after; the directory
    /// holds every section's offset, length and SHA-256, so when it matches too, the sections
    /// compared were the ones the file is made of. Neither the whole encoding nor the whole
    /// stored file is held in memory.
    package static func storedSnapshot(_ fd: Int32, path: String, equals expected: ReplaySnapshot, log: (fd: Int32, path: String),
                               prefix: Int, blockSize: Int = SectionComparison.blockSize, piece: Int = 1 << 20,
                               fs: FileSystem) throws(StoreError) -> Bool {
        let size = try fs.size(fd, path: path)
        var readFailure: StoreError?
        let index = SnapshotIndex.open(size: size) { range in
            do throws(StoreError) { return try fs.read(fd, from: range.lowerBound, to: range.upperBound, path: path) } catch {
                readFailure = error
                return nil
            }
        }
        if let readFailure { throw readFailure }
        let families = expected.state.families.values.sorted { $0.id < $1.id }
        guard let index, index.familyIds == families.map(\.id) else { return false }
        let stored = families.map { index.families[$0.id]!.range }
        let comparison = SectionComparison(log: log, snapshot: (fd, path), prefix: prefix, blockSize: blockSize, fs: fs)
        // The header and the event ids (a tenth of the work) are encoded and compared on another
        // thread meanwhile, read a piece at a time (the ids of a million events are 16 MB).
        let (opened, compared) = Parallel.both({ () -> Result<(SnapshotStream, Bool), StoreError> in
            let stream = SnapshotStream(expected)
            return Result { () throws(StoreError) in
                var held: [UInt8] = []
                var offset = stream.opening[0].count  // the preamble, compared last
                for part in [stream.header, stream.ids] {
                    guard try Self.read(fd, path: path, at: offset, matches: part, into: &held, piece: piece, fs: fs) else { return (stream, false) }
                    offset += part.count
                }
                return (stream, true)
            }
        }) {
            Result { () throws(StoreError) in try comparison.compare(families, stored: stored) }
        }
        let (encoded, openingSame) = try opened.get()
        guard openingSame else { return false }
        var stream = encoded
        var held: [UInt8] = []
        var offset = stream.opening.reduce(0) { $0 + $1.count }
        for (family, section) in zip(families, try compared.get()) {
            guard section.same else { return false }
            stream.add(id: family.id, length: section.length, digest: section.digest)
            offset += section.length
        }
        let (directory, preamble) = stream.closing()
        guard offset + directory.count == size, try Self.read(fd, path: path, at: offset, matches: directory, into: &held, fs: fs) else { return false }
        return try Self.read(fd, path: path, at: 0, matches: preamble, into: &held, fs: fs)
    }

    /// Whether the file holds `bytes` at `offset`: read into `held` a piece of at most
    /// `piece` bytes at a time (so `held` grows to a piece once and is reused), compared.
    private static func read(_ fd: Int32, path: String, at offset: Int, matches bytes: [UInt8], into held: inout [UInt8],
                             piece: Int = .max, fs: FileSystem) throws(StoreError) -> Bool {
        var done = 0
        repeat {
            let count = min(piece, bytes.count - done)
            guard try fs.read(fd, (offset + done)..<(offset + done + count), into: &held, path: path) else { return false }  // the file ends before
            let same = count == 0 || held.withUnsafeBytes { stored in bytes.withUnsafeBytes { memcmp(stored.baseAddress!, $0.baseAddress! + done, count) == 0 } }
            guard same else { return false }
            done += count
        } while done < bytes.count
        return true
    }
}


/// The first chain problem's line, noted from the replay's problem stream.
private final class ChainWatch: @unchecked Sendable {
    private(set) var first: Int?
    func note(_ line: Int) { if first == nil { first = line } }
}
