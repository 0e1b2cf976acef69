/// Reads one line of a file being imported: the envelope exactly as replay reads a log line
/// (the same strict parser, the same ``EnvelopeReader``), import's
/// defaults for what an export may leave out, and the payload built without the state.
///
/// It is pure, so `import` decodes its lines on every core; a line without an `id` gets
/// ``missingId`` and the importer gives out new ids afterwards, in line order. A line's
/// `prev` is checked (a malformed one is refused, as replay refuses it) but not kept in its
/// draft: sealing writes every imported line's own.
package enum ImportDecoder {
    /// What one line of an import file is.
    package enum Line {
        /// Only white space.
        case blank
        /// Not JSON, or an envelope that breaks a rule of SPEC §1.
        case problem(EventError)
        /// A readable envelope, and its payload built (with `sanitizing`) or why it did not
        /// build. The draft keeps its raw `data` only when the payload did not build.
        case draft(EventDraft, payload: Result<Payload, EventError>)
    }

    /// The id of a draft whose line has none (not a valid id, so no line can carry it).
    package static let missingId = ""

    /// Decodes one line (without its `\n`); `at` fills a missing `at`.
    package static func decode(_ line: UnsafeBufferPointer<UInt8>, at: Timestamp, sanitizing: Bool, tape: inout JSONTape) -> Line {
        guard tape.scan(line), let base = line.baseAddress else {
            return line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) ? .blank : .problem(EventError("invalid JSON", kind: .unreadable))
        }
        guard EnvelopeReader.isObject(tape) else { return .problem(EventError("invalid JSON", kind: .unreadable)) }
        let decoded: EnvelopeReader.Decoded
        do {
            // `prev` is checked, not kept: sealing writes an imported line's own.
            decoded = try EnvelopeReader.decode(tape, base, spellingPrev: false, importingAt: at)
        } catch {
            return .problem(error)
        }
        var draft = decoded.draft
        let (type, version) = (draft.type, draft.version)
        let payload = TapeObject.reading(tape: tape, base: base, index: decoded.data) { fields in
            Result { () throws(EventError) in try Rules.payloadIgnoringState(type: type, version: version, data: fields, sanitizing: sanitizing) }
        }
        if !payload.succeeded, case .object(let object) = tape.value(at: decoded.data, in: base) { draft.data = object }
        return .draft(draft, payload: payload)
    }
}
