import CompassCore
import Dispatch

/// The lines of the file being imported, decoded a block at a time on every core, as
/// replay reads a log's (the same splitter, strict parser and envelope decoder), with
/// import's defaults for what an export leaves out: a new id (in line order), `at` = now,
/// and the family filled against the state.
package struct ImportFile: ImportSource {
    /// Lines per block: enough to keep both cores busy, few enough that a block's drafts
    /// and encoded lines stay a few megabytes (`$COMPASS_IMPORT_BLOCK_LINES` sets it, for tests).
    package static let defaultBlockLines = 8_192

    let blockLines: Int
    /// Read ahead of the lines taken so far (`offset`): the whole input when it came in
    /// memory (standard input), else the file's next chunk.
    private var bytes: [UInt8]
    /// The file still being read, and where (nil: every byte is in `bytes`).
    private var file: (fd: Int32, path: String, fs: FileSystem, position: Int)?
    /// How much of a file is read at a time.
    static let chunkBytes = 8 << 20
    let now: Timestamp
    let makeId: () -> String
    let store: CompassStore
    /// The imported file's path (nil for standard input): attachment bytes may lie beside it.
    let importedFile: String?
    private var offset = 0
    /// The lines handed to decoding so far.
    private var linesTaken = 0
    /// The next block, being decoded while the current one is decided.
    private var ahead: DecodingBlock?
    private var messages: [String: String] = [:]  // one copy of each problem's text, however many lines share it
    private var families: [String: String] = [:]  // users who join in this file
    private var ownBlobs: [String: Set<String>] = [:]  // each family's attachment hashes, worked out once

    /// - Parameters:
    ///   - bytes: the input when it is already in memory (standard input).
    ///   - file: the file to read a chunk at a time instead, open for reading (the caller closes it).
    package init(bytes: [UInt8] = [], file: (fd: Int32, path: String, fs: FileSystem)? = nil, now: Timestamp, makeId: @escaping () -> String,
         store: CompassStore, importedFile: String?, blockLines: Int = defaultBlockLines) {
        self.blockLines = blockLines
        self.file = file.map { ($0.fd, $0.path, $0.fs, 0) }
        self.bytes = bytes
        self.now = now
        self.makeId = makeId
        self.store = store
        self.importedFile = importedFile
    }

    /// Hands over the block decoded while the one before was decided and written, and
    /// starts decoding the next on other threads.
    package mutating func nextBlock() throws(StoreError) -> ImportBlock? {
        if ahead == nil { ahead = try startDecoding() }
        guard let job = ahead else { return nil }
        ahead = try startDecoding()
        var (block, missingIds) = job.take()
        // Ids are made here, in line order.
        for index in missingIds { block.drafts[index].id = makeId() }
        for index in block.problems.indices {
            let message = messages[block.problems[index].message] ?? block.problems[index].message
            messages[message] = message
            block.problems[index].message = message
        }
        return block
    }

    /// Takes the next block's lines (reading more of the file as needed) and starts
    /// decoding them on other threads; nil when no line is left.
    private mutating func startDecoding() throws(StoreError) -> DecodingBlock? {
        var ranges: [Range<Int>] = []
        var end = offset
        while true {
            ranges.removeAll(keepingCapacity: true)
            end = bytes.withUnsafeBufferPointer {
                LineSplitter.completeLines(in: $0, from: offset, to: $0.count, into: &ranges, limit: blockLines)
            }
            if ranges.count == blockLines { break }
            guard try readMore() else { break }
        }
        guard offset < bytes.count else { return nil }
        // A last line without `\n` is a line like the others (a file is not a log being written).
        var trailing = false
        if ranges.count < blockLines, end < bytes.count {
            ranges.append(end..<bytes.count)
            trailing = true
            end = bytes.count
        }
        // The block's bytes are its own, so reading on cannot move them under the decoder.
        let start = offset
        let lines = Array(bytes[start..<end])
        offset = end
        defer { linesTaken += ranges.count }
        return DecodingBlock(lines: lines, ranges: ranges.map { ($0.lowerBound - start)..<($0.upperBound - start) },
                             linesBefore: linesTaken, trailing: trailing, now: now)
    }

    /// Reads the file's next chunk after the bytes not yet taken (the taken ones are let
    /// go); false when the file has no more.
    private mutating func readMore() throws(StoreError) -> Bool {
        guard var reading = file else { return false }
        let chunk = try reading.fs.read(reading.fd, from: reading.position, to: reading.position + Self.chunkBytes, path: reading.path)
        guard !chunk.isEmpty else {
            file = nil
            return false
        }
        reading.position += chunk.count
        file = reading
        bytes.removeSubrange(0..<offset)
        offset = 0
        bytes += chunk
        return true
    }

    package mutating func fill(_ block: inout ImportBlock, state: CompassState) {
        // Lines that name their family (a log's own lines) are taken as they are.
        for index in block.drafts.indices {
            // (Only a `MemberJoined` line's payload is read: reading one copies its texts.)
            let joining = block.drafts[index].type == EventType.memberJoined.rawValue
                ? Self.joiningUser(block.drafts[index], block.payloads[index]) : nil
            do throws(EventError) {
                try Self.fillFamily(&block.drafts[index], joining: joining, state: state, families: &families)
            } catch {
                block.refuse(index, error)
            }
        }
    }

    package mutating func stage(_ block: inout ImportBlock, state: CompassState) throws(StoreError) -> [StagedAttachment] {
        var staged: [StagedAttachment] = []
        for index in block.attaching {
            // The blobs a line names: an interaction's attachments, a document's bytes (v3).
            // (A line refused by `fill` since it was listed has a failed payload.)
            guard case .success(let payload) = block.payloads[index] else { continue }
            let family = block.drafts[index].family
            let own = ownBlobs[family] ?? state.families[family]?.attachmentHashes ?? []
            ownBlobs[family] = own
            switch try store.importableBlobs(of: payload, own: own, importedFile: importedFile) {
            case .success(let bytes): staged += bytes
            case .failure(let refusal): block.refuse(index, refusal)
            }
        }
        return staged
    }

    /// Fills a draft's family when its line left it out: the actor's family, a family joined
    /// earlier in the file, or the joining user's new family. `joining` is the user a
    /// `MemberJoined` line names (``joiningUser(_:_:)``; nil for any other line).
    package static func fillFamily(_ draft: inout EventDraft, joining: String?, state: CompassState,
                           families: inout [String: String]) throws(EventError) {
        if draft.family.isEmpty {
            if let family = state.members[draft.actor]?.family ?? families[draft.actor] {
                draft.family = family
            } else if let joining, joining == draft.actor {
                draft.family = "f-\(joining)"
            } else {
                throw EventError("Unknown user \(draft.actor)")
            }
        }
        if let joining { families[joining] = draft.family }
    }

    /// The `userId` a `MemberJoined` line names: from its built payload, or from its raw data
    /// when the payload did not build.
    package static func joiningUser(_ draft: EventDraft, _ payload: Result<Payload, EventError>) -> String? {
        if case .success(.memberJoined(let joined)) = payload { return joined.userId }
        if case .string(let user)? = draft.data["userId"] { return user }
        return nil
    }
}

extension Payload {
    /// Whether the event points at stored bytes by their hash: an interaction's attachments,
    /// a document's file (an attachment without a hash names no bytes).
    fileprivate var namesBlobs: Bool {
        switch self {
        case .interactionLogged(let logged): (logged.attachments ?? []).contains { $0.sha256 != nil }
        case .documentUploaded(let document): document.sha256 != nil
        default: false
        }
    }
}

/// One block of an import file's lines, decoded on other threads (``ImportDecoder``) while the
/// block before it is decided and written, and made into the block's drafts there too.
private final class DecodingBlock: @unchecked Sendable {
    private let done = DispatchGroup()
    // Written by the decoding thread before `done` is left, read only after waiting on it.
    private var block = ImportBlock()
    private var missingIds: [Int] = []

    /// - Parameters:
    ///   - linesBefore: the file's lines before this block's.
    ///   - trailing: whether the block ends with the file's last line, which had no `\n`.
    init(lines: [UInt8], ranges: [Range<Int>], linesBefore: Int, trailing: Bool, now: Timestamp) {
        done.enter()
        DispatchQueue.global().async { [self] in
            let decoded = lines.withUnsafeBufferPointer { all in
                Parallel.map(ranges, minimum: 64, scratch: { JSONTape() }) { range, tape -> ImportDecoder.Line in
                    ImportDecoder.decode(UnsafeBufferPointer(rebasing: all[range]), at: now, sanitizing: true, tape: &tape)
                }
            }
            // Only readable lines are kept as drafts, an unreadable one as its problem alone:
            // memory follows the valid events, not the input's line count.
            block.drafts.reserveCapacity(decoded.count)
            block.payloads.reserveCapacity(decoded.count)
            block.lineNumbers.reserveCapacity(decoded.count)
            for index in decoded.indices {
                let number = linesBefore + index + 1
                switch decoded[index] {
                case .draft(let draft, let payload):
                    if draft.id == ImportDecoder.missingId { missingIds.append(block.drafts.count) }
                    if case .success(let built) = payload, built.namesBlobs { block.attaching.append(block.drafts.count) }
                    block.drafts.append(draft)
                    block.payloads.append(payload)
                    block.lineNumbers.append(number)
                case .problem(let error):
                    block.problems.append(Problem(line: number, message: error.message, kind: error.kind))
                case .blank where trailing && index == decoded.count - 1:
                    continue  // white space after the last newline
                case .blank:
                    block.problems.append(Problem(line: number, message: "blank line", kind: .unreadable))
                }
            }
            done.leave()
        }
    }

    /// The block's drafts, once they are made, and the indices of those whose line gave no
    /// id; the block is the caller's from then on.
    func take() -> (block: ImportBlock, missingIds: [Int]) {
        done.wait()
        defer { block = ImportBlock() }
        return (block, missingIds)
    }
}
