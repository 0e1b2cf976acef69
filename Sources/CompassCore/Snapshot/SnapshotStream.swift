/// A snapshot written piece by piece (see ``SnapshotCodec``): first ``opening`` (a placeholder
/// for the preamble, the header and the ids), then each family section as it is encoded, in id
/// order, then the directory; the preamble, known only then, goes over the placeholder. Only
/// one family's bytes need be in memory at a time.
package struct SnapshotStream {
    package let header: [UInt8]
    package let ids: [UInt8]
    private var entries: [(id: String, length: Int, digest: [UInt8])] = []

    package init(_ snapshot: ReplaySnapshot) {
        header = SnapshotCodec.headerSection(snapshot)
        ids = SnapshotCodec.idsSection(snapshot.state.eventIds)
    }

    /// What to write first: zeros where the preamble goes, the header, the ids.
    package var opening: [[UInt8]] { [[UInt8](repeating: 0, count: SnapshotCodec.preambleLength), header, ids] }

    /// Records a family section just written (sections come in id order).
    package mutating func add(_ section: SnapshotCodec.Section) {
        add(id: section.id, length: section.bytes.count, digest: section.digest)
    }

    /// Records a family section by its id, length and SHA-256 (its bytes already compared).
    package mutating func add(id: String, length: Int, digest: [UInt8]) {
        entries.append((id, length, digest))
    }

    /// The directory, to write after the last family section, and the preamble for offset 0.
    package func closing() -> (directory: [UInt8], preamble: [UInt8]) {
        let codec = SnapshotCodec.self
        var w = ByteWriter()
        w.uint(UInt64(entries.count))
        var offset = codec.preambleLength + header.count + ids.count
        for entry in entries {
            w.string(entry.id)
            w.uint(UInt64(offset))
            w.uint(UInt64(entry.length))
            w.bytes += entry.digest
            offset += entry.length
        }
        let directory = w.bytes
        var preamble = codec.magic
        preamble.appendLittleEndian(codec.formatVersion)
        preamble.appendLittleEndian(UInt64(offset + directory.count))
        let starts = [codec.preambleLength, codec.preambleLength + header.count, offset]
        for (number, section) in [header, ids, directory].enumerated() {
            preamble.appendLittleEndian(UInt64(starts[number]))
            preamble.appendLittleEndian(UInt64(section.count))
            preamble += SHA256.digest(number == 1 ? Array(section[..<SnapshotCodec.idsIndexLength(section)]) : section)
        }
        return (directory, preamble)
    }
}
