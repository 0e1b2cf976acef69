import CompassCore

/// The store a device syncs with (SPEC §7): the family's canonical stream. ``CompassStore``
/// is one (a file or a PostgreSQL store reached directly); an app that reaches its server over
/// HTTP implements these three calls there, carrying the log's own lines.
public protocol SyncRemote {
    /// `user`'s family and its stream as the remote holds it: its lines, each ending in `\n`,
    /// in `seq` order, byte for byte.
    ///
    /// - Throws: ``StoreError/rejected(_:)`` `Unknown user U` when `user` is not a member.
    func familyStream(of user: String) throws(StoreError) -> (family: String, lines: [UInt8])
    /// Decides an event a device recorded, as ``CompassStore/append(recorded:files:)`` does:
    /// idempotent by event id, refused with the SPEC's message.
    func push(_ event: Event, files: [AttachmentFile]) throws(StoreError) -> Receipt
    /// The bytes of an attachment or a document the remote holds, by SHA-256 (nil: none).
    func attachment(_ sha256: String) throws(StoreError) -> [UInt8]?
}

extension CompassStore: SyncRemote {
    public func familyStream(of user: String) throws(StoreError) -> (family: String, lines: [UInt8]) {
        guard let family = try state(for: user).members[user]?.family else {
            throw .rejected(EventError("Unknown user \(user)", kind: .notFound))
        }
        return (family, try backend.familyLines(family).lines)
    }

    public func push(_ event: Event, files: [AttachmentFile]) throws(StoreError) -> Receipt {
        try append(recorded: event, files: files)
    }

    public func attachment(_ sha256: String) throws(StoreError) -> [UInt8]? {
        guard SHA256.isHex(sha256) else { return nil }
        return try backend.blob(sha256)
    }
}
