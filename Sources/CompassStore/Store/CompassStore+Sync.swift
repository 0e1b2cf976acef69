import CompassCore

extension CompassStore {
    /// Syncs `user`'s family with the family's canonical store (SPEC §7).
    ///
    /// A store that is not there yet is made a clone of the remote's family stream, with a
    /// device tag of its own (default ids made here end in `.TAG`, so no two devices make the
    /// same). Otherwise, holding the writers' lock throughout: each line appended here since
    /// the last sync is pushed to the remote in order (idempotent by event id; one the remote
    /// refuses is reported and dropped), then this store's stream becomes the remote's, byte for
    /// byte. A failure before that leaves this store as it was (what was pushed is the remote's:
    /// the next sync finds it there and pushes nothing twice).
    ///
    /// This store holds one family, on a file (a device's); the remote is any ``SyncRemote``.
    /// An erasure is made on the remote: a store with an erasure of its own since its last sync
    /// is refused (its pull would bring the erased lines back).
    public func sync(with remote: some SyncRemote, as user: String) throws(StoreError) -> SyncReport {
        if let store = remote as? CompassStore, store === self || store.path == path {
            throw .conflict("a store syncs with another store, not with itself")
        }
        lock.lock()
        defer { lock.unlock() }
        guard !Self.isDatabaseAddress(path) else {
            throw .conflict("a device's store is a file: sync a file store (--log FILE) with the database (--remote URL)")
        }
        var report = SyncReport()
        if try !backend.exists() {
            let (family, lines) = try remote.familyStream(of: user)
            let blobs = try blobsMissing(from: lines, fetchingFrom: remote)
            _ = try backend.restore(lines, blobs: blobs, refused: [])
            let stream = Self.stream(lines)
            try SyncState(device: SyncState.tag(from: configuration.makeId()), family: family, seq: stream.seq)
                .write(log: path, fs: fs)
            report.cloned = true
            report.pulled = stream.count
            report.family = family
            report.head = stream.head
            return report
        }
        guard let synced = try SyncState.read(log: path, fs: fs) else {
            throw .conflict("\(Self.displayAddress(path)) was not made by a sync: a device's store starts as a clone (sync with a new --log)")
        }
        var next = synced
        try backend.replaceLog({ (bytes) throws(StoreError) -> [UInt8] in
            // This store's own lines, checked before anything is pushed.
            var pending: [Event] = []
            for line in Self.lines(of: bytes) {
                let prepared = Self.prepared(line)
                let event = prepared.event
                guard prepared.content == .event else {
                    if case .draft(let draft, _) = prepared.content, draft.seq > synced.seq {
                        report.refused.append(SyncReport.Refusal(eventId: draft.id, message: "a line this store could not read"))
                    }
                    continue
                }
                guard event.family == synced.family else {
                    throw .conflict("\(Self.displayAddress(path)) holds family \(event.family) besides \(synced.family): a device's store holds one family")
                }
                guard event.seq > synced.seq else { continue }
                if case .erasureRecorded = event.payload {
                    throw .conflict("this store erased lines since its last sync: erase on the family's store, then sync a new clone")
                }
                pending.append(event)
            }
            var pushedIds: Set<String> = []
            for event in pending {
                do throws(StoreError) {
                    _ = try remote.push(event, files: try files(named: event.payload))
                    report.pushed += 1
                    pushedIds.insert(event.id)
                } catch {
                    switch error {
                    case .rejected(let refusal): report.refused.append(SyncReport.Refusal(eventId: event.id, message: refusal.message))
                    case .keyReused: report.refused.append(SyncReport.Refusal(eventId: event.id, message: error.message))
                    default: throw error
                    }
                }
            }
            let (family, lines) = try remote.familyStream(of: user)
            guard family == synced.family else {
                throw .conflict("\(user) is in family \(family) on the remote, not \(synced.family) as on this device")
            }
            _ = try backend.saveBlobs(try blobsMissing(from: lines, fetchingFrom: remote))
            let stream = Self.stream(lines)
            for line in Self.lines(of: lines) {
                let event = Self.prepared(line)
                if event.content == .event, event.event.seq > synced.seq, !pushedIds.contains(event.event.id) { report.pulled += 1 }
            }
            next.seq = stream.seq
            report.family = family
            report.head = stream.head
            return lines
        }, committed: { () throws(StoreError) in try next.write(log: path, fs: fs) })
        return report
    }

    /// The device tag of this store, when it syncs (default ids end in `.TAG`).
    package func deviceTag() throws(StoreError) -> String? {
        guard !Self.isDatabaseAddress(path) else { return nil }
        return try SyncState.read(log: path, fs: fs)?.device
    }

    /// The files an event names, from this store (an interaction's attachments, a document's).
    private func files(named payload: Payload) throws(StoreError) -> [AttachmentFile] {
        var named: [(name: String, sha: String)] = []
        switch payload {
        case .interactionLogged(let logged): named = (logged.attachments ?? []).compactMap { a in a.sha256.map { (a.name, $0) } }
        case .documentUploaded(let document): if let sha = document.sha256 { named = [(document.fileName ?? document.documentId, sha)] }
        default: break
        }
        var files: [AttachmentFile] = []
        for (name, sha) in named {
            guard let bytes = try backend.blob(sha) else { throw .io(path: path, message: "attachment \(sha) of this store is missing") }
            files.append(.bytes(name: name, bytes))
        }
        return files
    }

    /// The bytes `lines` name that this store does not hold, fetched from `remote`.
    private func blobsMissing(from lines: [UInt8], fetchingFrom remote: some SyncRemote) throws(StoreError) -> [StagedAttachment] {
        var staged: [StagedAttachment] = []
        var seen: Set<String> = []
        for line in Self.lines(of: lines) {
            let prepared = Self.prepared(line)
            guard prepared.content == .event else { continue }
            var named: [(name: String, mime: String, sha: String)] = []
            switch prepared.event.payload {
            case .interactionLogged(let logged): named = (logged.attachments ?? []).compactMap { a in a.sha256.map { (a.name, a.mimeType, $0) } }
            case .documentUploaded(let document): if let sha = document.sha256 { named = [(document.fileName ?? document.documentId, "", sha)] }
            default: break
            }
            for (name, mime, sha) in named where seen.insert(sha).inserted {
                if try backend.hasBlob(sha) { continue }
                guard let bytes = try remote.attachment(sha), SHA256.hex(bytes) == sha else {
                    throw .io(path: path, message: "the remote has no attachment \(sha) that its lines name")
                }
                staged.append(StagedAttachment(name: name, bytes: bytes, mimeType: mime, sha256: sha))
            }
        }
        return staged
    }

    /// Each line of `bytes` (without its `\n`).
    private static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
    }

    /// The last `seq`, the head (the last line's hash) and the count of a family's stream.
    private static func stream(_ lines: [UInt8]) -> (seq: Int64, head: String, count: Int) {
        let all = self.lines(of: lines)
        guard let last = all.last else { return (0, SHA256.emptyHex, 0) }
        let head = last.withUnsafeBufferPointer { LineHash(of: $0).hex }
        return (prepared(last).event.seq, head, all.count)
    }

    /// A line read as replay reads it (its event, when it builds).
    private static func prepared(_ line: ArraySlice<UInt8>) -> PreparedLine {
        line.withUnsafeBufferPointer { PreparedLine($0, hashing: false, keepingPayload: false) }
    }
}
