import CompassCore

/// The lines of a file being imported, handed to the store a block at a time so an import
/// holds one block's drafts and lines, never the whole file's (`compass import`).
///
/// The store asks for a block, has the source fill what its lines leave out against the state
/// the blocks before it built, loads the families they name, has the source stage the bytes
/// they attach, decides them with the one rule set and writes them, then asks for the next.
package protocol ImportSource {
    /// The next block of the input's lines, decoded (nil after the last).
    mutating func nextBlock() throws(StoreError) -> ImportBlock?
    /// Fills what the block's lines leave out (their family) from `state`; a line that
    /// cannot be filled is refused (``ImportBlock/refuse(_:_:)``).
    mutating func fill(_ block: inout ImportBlock, state: CompassState) throws(StoreError)
    /// The bytes the block's lines attach, once their families are in `state`; a line naming
    /// bytes it may not have is refused.
    mutating func stage(_ block: inout ImportBlock, state: CompassState) throws(StoreError) -> [StagedAttachment]
}

/// One block of an import: its readable lines as drafts with their payloads built without
/// the state, and the lines refused before deciding.
package struct ImportBlock {
    /// The readable lines, in file order (a refused one is a placeholder no rule accepts).
    package var drafts: [EventDraft] = []
    /// Each draft's payload, built without the state.
    package var payloads: [Result<Payload, EventError>] = []
    /// Each draft's line number in the file.
    package var lineNumbers: [Int] = []
    /// The drafts whose payload names stored bytes (an interaction's attachments, a document's
    /// file), in order: worked out where the payloads were built, so staging need not read
    /// every payload (a read copies its texts).
    package var attaching: [Int] = []
    /// The lines refused before deciding: unreadable ones and refused drafts. A refused
    /// line's message is the one reported, whatever deciding its placeholder said.
    package var problems: [Problem] = []

    package init() {}

    /// Refuses the draft at `index`: it is reported with `error` and decided as a
    /// placeholder no rule accepts, so it is never written.
    package mutating func refuse(_ index: Int, _ error: EventError) {
        problems.append(Problem(line: lineNumbers[index], message: error.message, kind: error.kind))
        drafts[index] = Self.placeholder(at: drafts[index].at)
        payloads[index] = .failure(EventError("refused"))
    }

    /// Appends another block's lines after this one's.
    package mutating func append(contentsOf other: consuming ImportBlock) {
        attaching += other.attaching.map { $0 + drafts.count }
        drafts += other.drafts
        payloads += other.payloads
        lineNumbers += other.lineNumbers
        problems += other.problems
    }

    static func placeholder(at: Timestamp) -> EventDraft {
        EventDraft(seq: 1, id: "_", type: "_", at: at, actor: "_", family: "_", data: JSONObject())
    }

    /// The problems to report: the refused lines' own, and deciding's for the others, in
    /// line order.
    static func report(refused: [Problem], decided: [Problem]) -> [Problem] {
        let shaped = Set(refused.map(\.line))
        return (refused + decided.filter { !shaped.contains($0.line) }).sorted { $0.line < $1.line }
    }
}

/// What an import wrote: how many events, and each family's run of `seq`s (SPEC §1.1).
public struct ImportSummary: Equatable, Sendable {
    /// The events written.
    public package(set) var count = 0
    /// Each family's first and last new `seq`.
    public package(set) var runs: [String: ClosedRange<Int64>] = [:]

    package init() {}

    /// What a restore of these lines (checked) wrote: every line, and each family's run.
    init(restored input: [UInt8]) {
        (count, runs) = StreamRestore.seqRuns(of: input)
    }

    mutating func add(family: String, seq: Int64) {
        count += 1
        runs[family] = (runs[family]?.lowerBound ?? seq)...seq
    }
}
