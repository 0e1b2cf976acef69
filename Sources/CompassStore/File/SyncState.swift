import CompassCore

/// What a device's store remembers of its syncs (SPEC §7), in `LOG.sync`: its tag (default ids
/// end in `.TAG`), the family it holds, and the `seq` of the remote's stream its own stream
/// was a copy of at the last sync: its lines after that are its own, to push.
package struct SyncState: Equatable, Sendable {
    /// 4–8 of `a-z0-9`, chosen when the store was cloned.
    package var device: String
    /// The family the store holds.
    package var family: String
    /// The remote's last `seq` at the last sync.
    package var seq: Int64

    /// Reads `LOG.sync` of the log at `path`; nil when the store was never synced.
    package static func read(log path: String, fs: FileSystem) throws(StoreError) -> SyncState? {
        let file = StoreFiles(log: path).sync
        guard let bytes = try fs.readFile(file, .readSide) else { return nil }
        guard case .object(let object)? = JSONParser.parse(bytes),
              case .string(let device)? = object["device"], isTag(device),
              case .string(let family)? = object["family"], Identifier.isValid(family),
              case .int(let seq)? = object["seq"], seq >= 0 else {
            throw .io(path: file, message: "\(file) is not a sync state this tool wrote")
        }
        return SyncState(device: device, family: family, seq: seq)
    }

    /// Writes it as `LOG.sync` (atomically).
    package func write(log path: String, fs: FileSystem) throws(StoreError) {
        var w = JSONWriter()
        w.beginObject()
        w.field("device", device)
        w.field("family", family)
        w.field("seq", seq)
        w.endObject()
        _ = try fs.writeFileAtomically(StoreFiles(log: path).sync, parts: [w.line()])
    }

    /// Whether `text` is a device tag: 4–8 of `a-z0-9`.
    package static func isTag(_ text: String) -> Bool {
        (4...8).contains(text.utf8.count) && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// A tag made from a new id (its first six letters and digits, lower-cased).
    package static func tag(from id: String) -> String {
        let usable = id.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        let tag = String(String.UnicodeScalarView(usable.prefix(6)))
        return isTag(tag) ? tag : "dev0"
    }
}
