import CompassCore

extension CompassStore {
    /// Appends an event another device recorded (the parent's phone, synced to the athlete's):
    /// its own `id`, `at`, `actor` and payload, decided against this store's rules as
    /// `import` decides a line, and given this store's next `seq` and `prev` for its family.
    ///
    /// Idempotent by event id: an event already here with the same content is not written
    /// again (its receipt is returned); the same id with other content is
    /// ``StoreError/keyReused(eventId:)``. So a sync layer can move events between devices
    /// any number of times without changing them.
    ///
    /// An event that names attachment or document bytes needs them: in `files` (checked
    /// against their hash and stored with the event), or already in this store for the
    /// family.
    ///
    /// - Throws: ``StoreError/rejected(_:)`` with the rule's message, as an append would.
    @discardableResult
    public func append(recorded event: Event, files: [AttachmentFile] = []) throws(StoreError) -> Receipt {
        lock.lock()
        defer { lock.unlock() }
        // The event as a line, read back as import reads one: a draft with its raw data (an
        // idempotent retry compares content) and the payload built without the state.
        let line = EventEncoder.line(for: event)
        var tape = JSONTape()
        let decoded = line.withUnsafeBufferPointer { ImportDecoder.decode($0, at: event.at, sanitizing: true, tape: &tape) }
        guard case .draft(var draft, let payload) = decoded else { throw .rejected(EventError("The recorded event is not a valid event")) }
        guard case .success(let built) = payload else {
            if case .failure(let error) = payload { throw .rejected(error) }
            throw .rejected(EventError("The recorded event is not a valid event"))
        }
        draft.data = Self.data(of: line)
        // The files are checked by the rules the original append applied: a document's file is
        // any type up to its size limit; an interaction's attachments are by type and size.
        var staged: [StagedAttachment] = []
        for file in files {
            if case .documentUploaded = built { staged.append(try file.stagedAsDocument(fs: fs)) } else { staged.append(try file.staged(fs: fs)) }
        }
        for sha in Self.blobHashes(of: built) where !staged.contains(where: { $0.sha256 == sha }) {
            guard try backend.hasBlob(sha) else {
                throw .rejected(EventError("attachment \(sha) is not in this store; pass its bytes in files", kind: .notFound))
            }
        }
        let backend = self.backend
        var request = AppendRequest(eventId: event.id, actor: event.actor)
        request.beforeWrite = { _ throws(StoreError) in try backend.saveBlobs(staged) }
        request.prebuilt = [.success(built)]
        let drafted = draft
        let outcome = try backend.append(request, build: { _, _ throws(StoreError) in [drafted] })
        switch outcome {
        case .written(let events):
            let written = events[events.count - 1]
            return Receipt(seq: written.seq, eventId: written.id, entityId: written.payload.entityId)
        case .alreadyPresent(let original):
            return Receipt(seq: original.seq, eventId: original.id, entityId: original.payload.entityId)
        }
    }

    /// The `data` object of an encoded line.
    private static func data(of line: [UInt8]) -> JSONObject {
        guard case .object(let envelope)? = JSONParser.parse(line), case .object(let data)? = envelope["data"] else { return JSONObject() }
        return data
    }

    /// The blobs an event's payload names (an interaction's attachments, a document's file).
    private static func blobHashes(of payload: Payload) -> [String] {
        switch payload {
        case .interactionLogged(let logged): (logged.attachments ?? []).compactMap(\.sha256)
        case .documentUploaded(let document): document.sha256.map { [$0] } ?? []
        default: []
        }
    }
}
