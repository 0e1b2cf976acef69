import CompassCore

/// One family's history read from its own lines (SPEC §1.1): an audit or a time travel by
/// `seq` of a viewer's family reads the lines the snapshot says are that family's
/// (``FamilyLines``), not the whole log.
///
/// It answers only when that is the whole log's answer, and nil otherwise (the caller then
/// reads the whole log):
/// - the family's stream has no problem and no line names no family, so every line of the
///   family was accepted in the whole log; a family's fold reads only its own lines, so they
///   are accepted, and fold the same, read alone;
/// - the index holds as many lines as the stream, each read back whole (a `\n` on both
///   sides), and they are the stream: each names the one before by its `prev`, the first
///   the empty hash, and the last is the family's head (or, for lines not ending in `prev`
///   as `compass` writes them, read alone they make that family's stream with no problem,
///   to its head);
/// - the cut is by `seq` (a cut by time ends the whole log at a line of any family).
enum FamilyHistory {
    /// Lines read together when the gap between them is at most this many bytes.
    static let gapRead = 4 << 10

    /// `user`'s family replayed from its own lines with `cut` and `observer`, or nil when
    /// only the whole log can answer (see above).
    static func replay(fd: Int32, path: String, extent: LogExtent, fs: FileSystem, user: String, cut: ReplayCut,
                       observer: ((LineOutcome, CompassState) -> Void)?, snapshots: SnapshotPolicy,
                       problems: ProblemRetention) throws(StoreError) -> Replayer? {
        guard cut.asOf == nil, !extent.torn else { return nil }
        // Now, from the snapshot: the family's lines, its head and whether any line has a problem.
        let now = try LogReader.replay(fd: fd, path: path, extent: extent, fs: fs, snapshots: snapshots,
                                       scope: .familyOf(user), problems: .summary, textsStayInLog: true)
        guard !now.deferredFailed, now.tornLine == nil, let family = now.state.members[user]?.family,
              let recorded = now.state.families[family]?.lines, recorded.isWhole, recorded.count > 0,
              let stream = now.streams[family: family], stream.lines == recorded.count,
              now.problemSummary.byFamily[family] == nil, now.problemSummary.byFamily[nil as String?] == nil,
              case let index = recorded.places, let lines = try read(index, fd: fd, path: path, end: extent.complete, fs: fs)
        else { return nil }
        var tape = JSONTape()
        let hashes = lines.hashes()
        guard chains(lines, hashes: hashes, to: stream.head.text) ?? replaysAlone(lines, index, hashes, stream, &tape) else { return nil }
        var replayer = Replayer(cut: cut, observer: observer, problems: problems)
        for (number, place) in index.enumerated() {
            guard replayer.consume(number, of: lines, number: place.line, offset: place.offset, hash: hashes[number],
                                   tape: &tape) else { break }
        }
        // (Checked above, so never so; a read with no observer could still go back to the log.)
        guard observer != nil || replayer.problemSummary.count == 0 else { return nil }
        return replayer
    }

    /// Whether the lines chain from the empty hash to `head`, each naming the one before by
    /// the `prev` it ends with; nil when a line does not end in `,"prev":"HEX"}`.
    static func chains(_ lines: HeldLines, hashes: [LineHash], to head: String) -> Bool? {
        var before = SHA256.emptyLineHash
        for number in 0..<lines.count {
            guard let prev = lines.endingPrev(of: number) else { return nil }
            guard prev == before else { return false }
            before = hashes[number]
        }
        return before.isSpelled(by: head)
    }

    /// Whether the lines, replayed alone with no observer, make one stream of the family with
    /// no problem that is `stream` (the same lines, `seq`, last line and head).
    static func replaysAlone(_ lines: HeldLines, _ index: [LinePlace], _ hashes: [LineHash], _ stream: FamilyStream,
                             _ tape: inout JSONTape) -> Bool {
        var check = Replayer(problems: .summary)
        for (number, place) in index.enumerated() {
            check.consume(number, of: lines, number: place.line, offset: place.offset, hash: hashes[number], tape: &tape)
        }
        guard check.problemSummary.count == 0, check.streams.count == 1, let alone = check.streams[family: stream.family] else { return false }
        return alone.seq == stream.seq && alone.line == stream.line && alone.lines == stream.lines && alone.sealed == stream.sealed
            && alone.head.text == stream.head.text
    }

    /// The family's lines, read in runs of nearby lines: their bytes end to end and each one's
    /// range there; nil when one is not a whole line of the committed log.
    static func read(_ index: [LinePlace], fd: Int32, path: String, end: Int, fs: FileSystem) throws(StoreError) -> HeldLines? {
        var lines = HeldLines()
        lines.reserve(lines: index.count, bytes: index.reduce(0) { $0 + $1.length })
        var run: [UInt8] = []  // kept from run to run
        var next = 0
        while next < index.count {
            // A run: from the byte before the first line to the `\n` after the last one near it.
            var last = next
            while last + 1 < index.count, index[last + 1].offset - Self.end(index[last]) <= gapRead { last += 1 }
            let start = index[next].offset
            let stop = Self.end(index[last]) + 1
            guard stop <= end else { return nil }
            let from = max(0, start - 1)
            guard try fs.read(fd, from..<stop, into: &run, path: path) else { return nil }
            for k in next...last {
                let range = index[k].offset..<Self.end(index[k])
                let local = (range.lowerBound - from)..<(range.upperBound - from)
                guard run[local.upperBound] == 0x0A, range.lowerBound == 0 || run[local.lowerBound - 1] == 0x0A else { return nil }
                lines.append(run[local])
            }
            next = last + 1
        }
        return lines
    }

    /// Where a line's bytes end.
    static func end(_ place: LinePlace) -> Int { place.offset + place.length }
}
