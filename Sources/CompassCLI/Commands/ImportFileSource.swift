import CompassCore
import CompassStore

extension ImportCommand {
    /// The lines of the file being imported, decoded a block at a time on every core, as
    /// replay reads a log's (the same splitter, strict parser and envelope decoder), with
    /// import's defaults for what an export leaves out: a new id (in line order), `at` = now,
    /// and the family filled against the state.
    struct FileSource: ImportSource {
        /// Lines per block: enough to keep both cores busy, few enough that a block's drafts
        /// and encoded lines stay a few megabytes (`$COMPASS_IMPORT_BLOCK_LINES` sets it, for tests).
        static let defaultBlockLines = 16_384

        let blockLines: Int
        let bytes: [UInt8]
        let now: Timestamp
        let makeId: () -> String
        let store: CompassStore
        /// The imported file's path (nil for standard input): attachment bytes may lie beside it.
        let importedFile: String?
        private var offset = 0
        private var linesRead = 0
        private var messages: [String: String] = [:]  // one copy of each problem's text, however many lines share it
        private var families: [String: String] = [:]  // users who join in this file
        private var ownBlobs: [String: Set<String>] = [:]  // each family's attachment hashes, worked out once

        init(bytes: [UInt8], now: Timestamp, makeId: @escaping () -> String, store: CompassStore, importedFile: String?,
             blockLines: Int = defaultBlockLines) {
            self.blockLines = blockLines
            self.bytes = bytes
            self.now = now
            self.makeId = makeId
            self.store = store
            self.importedFile = importedFile
        }

        mutating func nextBlock() -> ImportBlock? {
            guard offset < bytes.count else { return nil }
            var ranges: [Range<Int>] = []
            let end = bytes.withUnsafeBufferPointer {
                LineSplitter.completeLines(in: $0, from: offset, to: $0.count, into: &ranges, limit: blockLines)
            }
            // A last line without `\n` is a line like the others (a file is not a log being written).
            var trailing = false
            if ranges.count < blockLines, end < bytes.count {
                ranges.append(end..<bytes.count)
                trailing = true
                offset = bytes.count
            } else {
                offset = end
            }
            let now = self.now
            let decoded = bytes.withUnsafeBufferPointer { all in
                Parallel.map(ranges, minimum: 64, scratch: { JSONTape() }) { range, tape -> ImportDecoder.Line in
                    ImportDecoder.decode(UnsafeBufferPointer(rebasing: all[range]), at: now, sanitizing: true, tape: &tape)
                }
            }
            // Only readable lines are kept as drafts, an unreadable one as its problem alone:
            // memory follows the valid events, not the input's line count.
            var block = ImportBlock()
            block.drafts.reserveCapacity(decoded.count)
            for (index, line) in decoded.enumerated() {
                let number = linesRead + index + 1
                switch line {
                case .draft(var draft, let payload):
                    if draft.id == ImportDecoder.missingId { draft.id = makeId() }
                    block.drafts.append(draft)
                    block.payloads.append(payload)
                    block.lineNumbers.append(number)
                case .problem(let error):
                    let message = messages[error.message] ?? error.message
                    messages[message] = message
                    block.problems.append(Problem(line: number, message: message, kind: error.kind))
                case .blank where trailing && index == decoded.count - 1:
                    continue  // white space after the last newline
                case .blank:
                    block.problems.append(Problem(line: number, message: "blank line", kind: .unreadable))
                }
            }
            linesRead += decoded.count
            return block
        }

        mutating func fill(_ block: inout ImportBlock, state: CompassState) {
            // Lines that name their family (a log's own lines) are taken as they are.
            for index in block.drafts.indices {
                do throws(EventError) {
                    try ImportCommand.fillFamily(&block.drafts[index], joining: block.payloads[index], state: state, families: &families)
                } catch {
                    block.refuse(index, error)
                }
            }
        }

        mutating func stage(_ block: inout ImportBlock, state: CompassState) throws(StoreError) -> [StagedAttachment] {
            var staged: [StagedAttachment] = []
            for index in block.drafts.indices {
                // The blobs a line names: an interaction's attachments, a document's bytes (v3).
                guard case .success(let payload) = block.payloads[index], payload.namesBlobs else { continue }
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
    }
}

extension Payload {
    /// Whether the event points at stored bytes: an interaction's attachments, a document's file.
    fileprivate var namesBlobs: Bool {
        switch self {
        case .interactionLogged(let logged): !(logged.attachments ?? []).isEmpty
        case .documentUploaded(let document): document.sha256 != nil
        default: false
        }
    }
}
