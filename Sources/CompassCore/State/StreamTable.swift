/// One family's stream as a replay has read it so far (SPEC §1.1): the lines whose `family`
/// is this one, numbered by `seq` and chained by `prev` on their own.
package struct FamilyStream: Equatable, Sendable {
    /// The family id.
    package let family: String
    /// The last readable `seq` (0 before any): the family's version.
    package var seq: Int64 = 0
    /// The hash of the family's last line: its head (SHA-256 of "" before any).
    package var head = LineHead.text(SHA256.emptyHex)
    /// The file line (1-based) of the family's last line, 0 before any.
    package var line = 0
    /// How many lines the stream has.
    package var lines = 0
    /// Whether a line of the stream carried `prev`: every later one must then (SPEC §1).
    package var sealed = false
    /// Whether `--at-seq` has ended this stream (not kept in snapshots: a cut read writes none).
    var cut = false

    package init(family: String) { self.family = family }

    /// Equal when they are at the same place (whether a cut ended them is the read's, not the stream's).
    package static func == (a: FamilyStream, b: FamilyStream) -> Bool {
        a.family == b.family && a.seq == b.seq && a.head == b.head && a.line == b.line && a.lines == b.lines && a.sealed == b.sealed
    }

    package init(family: String, seq: Int64, head: String, line: Int, lines: Int, sealed: Bool) {
        self.family = family
        self.seq = seq
        self.head = .text(head)
        self.line = line
        self.lines = lines
        self.sealed = sealed
    }
}

/// The hash of a line: kept as words when a replay hashed the line itself (no string per
/// line), as text when it was handed one (a snapshot's head, a written line's hash).
package enum LineHead: Equatable, Sendable {
    case words(LineHash)
    case text(String)

    /// The 64 hex digits.
    package var text: String {
        switch self {
        case .words(let hash): hash.hex
        case .text(let text): text
        }
    }

    /// Whether a line's `prev` names this head (either form against either form).
    package func isSpelled(by prev: LineHead) -> Bool { self == prev }

    /// Whether a line's `prev` names this head.
    package func isSpelled(by prev: String) -> Bool {
        switch self {
        case .words(let hash): hash.isSpelled(by: prev)
        case .text(let text): text == prev
        }
    }

    /// Equal when they spell the same hash, whichever form each is kept in.
    package static func == (a: LineHead, b: LineHead) -> Bool {
        switch (a, b) {
        case (.words(let x), .words(let y)): x == y
        default: a.text == b.text
        }
    }
}

/// Every family's stream, found by the family id's hash (worked out while a line is prepared)
/// like ``FamilyTable``, so the fold finds a line's stream without hashing its family again.
package struct StreamTable: Sendable, Equatable {
    private var byHash = PositionIndex()
    package private(set) var list: [FamilyStream] = []

    package init() {}

    /// The streams given (a snapshot's), in any order.
    package init(_ streams: [FamilyStream]) {
        for stream in streams { list[position(adding: stream.family, hash: stream.family.hashValue)] = stream }
    }

    /// The stream of this family, if it has a line.
    package subscript(family family: String) -> FamilyStream? {
        position(of: family, hash: family.hashValue).map { list[$0] }
    }

    /// How many families have a stream.
    package var count: Int { list.count }

    /// The family's version: the `seq` of its last line, 0 for none (SPEC §1.1).
    package func version(of family: String) -> Int64 { self[family: family]?.seq ?? 0 }

    /// The streams sorted by family id's bytes (ids are ASCII, so `String` order is byte order).
    package var sorted: [FamilyStream] { list.sorted { $0.family < $1.family } }

    /// The log's root: SHA-256 of `FAMILY SEQ HEAD\n` per family, sorted by family id.
    package var root: String { Self.root(of: sorted.map { ($0.family, $0.seq, $0.head.text) }) }

    /// The root of these (family, seq, head) entries, already sorted by family.
    package static func root(of entries: [(family: String, seq: Int64, head: String)]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(entries.count * 96)
        for entry in entries {
            text += Array(entry.family.utf8)
            text.append(0x20)
            text += Array(String(entry.seq).utf8)
            text.append(0x20)
            text += Array(entry.head.utf8)
            text.append(0x0A)
        }
        return SHA256.hex(text)
    }

    @inline(__always) func position(of family: String, hash: Int) -> Int? {
        list.withUnsafeBufferPointer { streams in byHash.position(hash: hash) { (streams.baseAddress! + $0).pointee.family == family } }
    }

    /// The position of the family's stream, adding an empty one when it has none yet.
    @inline(__always) mutating func position(adding family: String, hash: Int) -> Int {
        if let position = position(of: family, hash: hash) { return position }
        byHash.insert(hash: hash, position: list.count)
        list.append(FamilyStream(family: family))
        return list.count - 1
    }

    /// Mutates the stream at `position` in place.
    @inline(__always) mutating func update<R>(at position: Int, _ body: (inout FamilyStream) -> R) -> R {
        body(&list[position])
    }

    /// Equal when they hold the same streams, whatever the order they were added in.
    package static func == (a: StreamTable, b: StreamTable) -> Bool {
        a.count == b.count && a.list.allSatisfy { b[family: $0.family] == $0 }
    }
}
