import CompassCore

/// One block of an import: its readable lines as drafts with their payloads built without
/// the state, and the lines refused before deciding.
package struct ImportBlock {
    /// The readable lines, in file order (a refused one is a placeholder no rule accepts).
    package var drafts: [EventDraft] = []
    /// Each draft's payload, built without the state.
    package var payloads: [Result<Payload, EventError>] = []
    /// Each draft's line number in the file.
    package var lineNumbers: [Int] = []
    /// The drafts whose payload names stored bytes by hash (an interaction's attachments, a
    /// document's file), in order: worked out where the payloads were built, so staging need
    /// not read every payload (a read copies its texts).
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

    /// `--expect-version`: the import's one family must be at `version` before it (read
    /// from `streams` when the block is the first to name it); a batch of several families
    /// cannot expect one.
    func checkVersion(_ version: Int64, expected: inout (family: String, version: Int64)?, streams: StreamTable) throws(StoreError) {
        for draft in drafts where draft.family != "_" {
            guard let (family, _) = expected else {
                let current = streams.version(of: draft.family)
                if version != current { throw .staleVersion(family: draft.family, expected: version, current: current) }
                expected = (draft.family, current)
                continue
            }
            if draft.family != family {
                throw .conflict("Conflict: --expect-version names one family's version, but the batch writes to \(family) and \(draft.family)")
            }
        }
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
