import CompassCore

extension LogWriter {
    /// Imports a file's lines a block at a time, all or nothing, holding one block's drafts
    /// and lines at a time (`compass import` on a file store).
    ///
    /// Under the exclusive lock, like any append: each block is filled, its families loaded,
    /// its attachments staged, decided with the one rule set against the state the blocks
    /// before it built, then encoded, sealed and written past the committed end under the
    /// batch's journal (``LogJournal``), which every reader stops at. Once any line is
    /// refused nothing more is written, though every later line is still decided so each
    /// rejected one is reported; the log is then cut back to its committed size. The batch
    /// is fsynced once and committed by removing the journal.
    package func importStream(_ source: inout some ImportSource, expectVersion: Int64?, sanitizing: Bool = true,
                              progress: ReadProgress? = nil) throws(StoreError) -> ImportSummary {
        try withLockedLog(beforeCreating: {}) { fd throws(StoreError) in
            try importLocked(fd, source: &source, expectVersion: expectVersion, sanitizing: sanitizing, progress: progress)
        }
    }

    private func importLocked(_ fd: Int32, source: inout some ImportSource, expectVersion: Int64?, sanitizing: Bool,
                              progress: ReadProgress?) throws(StoreError) -> ImportSummary {
        var replayer = try replayLocked(fd, actor: nil, progress: progress)
        let committed = try fs.size(fd, path: path)
        var summary = ImportSummary()
        var refused: [Problem] = []
        var rejected: [Problem] = []
        var undos: [() -> Void] = []
        var journaled = false
        var heads: [String: String] = [:]  // each family's last line written by this import
        var expected: (family: String, version: Int64)?
        var lastLine: [UInt8] = []
        var seqs: [String: Int64] = [:]  // each family's last `seq` decided by this import
        // Each decided block's drafts are freed on another thread while the next one is decided.
        let disposal = Disposal()
        defer { disposal.drain() }
        // The block being written on other threads while the next is decided; its lines are
        // folded into the replay's streams when it is done.
        var writing: (write: BlockWrite, lines: [(family: String, seq: Int64)])?
        func finishWriting() throws(StoreError) {
            guard let (write, lines) = writing else { return }
            writing = nil
            let written = try write.finish()
            for index in lines.indices {
                replayer.advanceWritten(family: lines[index].family, seq: lines[index].seq, sealed: true,
                                        lineLength: written.lengths[index], hash: written.hashes[index])
            }
            for (family, hash) in written.heads { heads[family] = hash }
            lastLine = written.lastLine
        }
        do throws(StoreError) {
            while var block = try source.nextBlock() {
                try source.fill(&block, state: replayer.state)
                // A replay resumed from a snapshot reads the families it decides in, and the event ids.
                for draft in block.drafts { replayer.prepareToDecide(family: draft.family, eventId: draft.id) }
                if replayer.deferredFailed {
                    // A snapshot part that does not check: read again without it, through what
                    // this import has written (folded already, so the state is the same; once a
                    // line was refused, later lines are decided only to be reported).
                    try finishWriting()
                    replayer = try LogReader.replay(fd: fd, path: path, extent: LogExtent(complete: try fs.size(fd, path: path), torn: false),
                                                    fs: fs, snapshots: snapshots, trustingSnapshot: false, problems: .summary,
                                                    textsStayInLog: true)
                }
                let staged = try source.stage(&block, state: replayer.state)
                refused += block.problems
                if let expectVersion {
                    try block.checkVersion(expectVersion, expected: &expected, streams: replayer.streams)
                }
                var events: [Event]
                do throws(StoreError) {
                    // The drafts' texts and payloads move into the events (the block is dropped next).
                    events = try StreamSealing.decide(taking: &block.drafts, against: &replayer, seqs: &seqs, sanitizing: sanitizing,
                                                      lineNumbers: block.lineNumbers, prebuilt: &block.payloads)
                } catch {
                    guard case .rejectedLines(let problems) = error else { throw error }
                    rejected += problems
                    continue
                }
                // Once a line is refused the import writes nothing more (it will be cut back).
                guard refused.isEmpty, rejected.isEmpty, !events.isEmpty else { continue }
                disposal.dispose(consume block)  // the drafts are not needed past deciding
                undos.append(try AttachmentStore(logPath: path).save(staged, fs: fs))
                try finishWriting()  // the block before: its families' heads are the next lines' `prev`
                var lines: [(family: String, seq: Int64)] = []
                lines.reserveCapacity(events.count)
                for index in events.indices {
                    let family = events[index].family
                    summary.add(family: family, seq: events[index].seq)
                    lines.append((family, events[index].seq))
                    if heads[family] == nil { heads[family] = replayer.streams[family: family]?.head.text ?? SHA256.emptyHex }
                }
                if !journaled {
                    journaled = true  // a journal that failed half-way is taken back too
                    try LogJournal.begin(log: path, committedSize: committed, fs: fs)
                }
                writing = (BlockWrite(events: consume events, heads: heads, fd: fd, path: path, fs: fs), lines)
            }
            try finishWriting()
            if !refused.isEmpty || !rejected.isEmpty {
                throw StoreError.rejectedLines(ImportBlock.report(refused: refused, decided: rejected))
            }
            if journaled {
                try fs.sync(fd, path: path)
                try LogJournal.end(log: path, fs: fs)  // the commit point of the import
            }
        } catch {
            // Nothing is written once this returns: a block still being written is waited for.
            writing?.write.wait()
            if journaled { rollBack(fd, to: committed, journaled: true) }
            for undo in undos.reversed() { undo() }
            throw error
        }
        if !lastLine.isEmpty { keep(replayer, lastLine: lastLine) }
        return summary
    }
}
