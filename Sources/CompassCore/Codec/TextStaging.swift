/// Where replay puts the long texts of a line it prepares (an interaction's subject and
/// content) instead of building a `String` for each: where their bytes are in the line. The
/// fold reads them there (the line's read buffer outlives its fold) and leaves them in the log
/// or copies them once into the state's compact storage.
///
/// Building those texts was a heap allocation per field on the preparing thread and a free
/// on the folding one. Only a plain string (no escapes) of valid UTF-8 within the field's
/// limit is staged; anything else is read the usual way, so every message stays the rules'
/// own (a differential test holds a staged replay equal to one without).
package struct TextStaging {
    /// The first byte of the line the texts are read from.
    let line: UnsafePointer<UInt8>
    /// Where each staged field's bytes are in the line.
    var texts = StagedTexts()

    package init(line: UnsafePointer<UInt8>) {
        self.line = line
    }

    /// Notes where a plain string's bytes are in the line when they are valid UTF-8 of at
    /// most `limit` UTF-16 units; false (nothing staged) otherwise. An empty text stages as
    /// absent. `bytes` must lie in the line (a line is at most 1 MiB).
    ///
    /// - Parameter ascii: the bytes are known to be ASCII (the scanner saw no other byte), so
    ///   they are as many UTF-16 units as bytes and need no second check.
    mutating func stage(_ bytes: UnsafeBufferPointer<UInt8>, as field: StagedTexts.Field, limit: Int, ascii: Bool = false) -> Bool {
        guard let units = ascii ? bytes.count : UTF8Check.utf16Count(ifValid: bytes) else { return false }
        return stage(bytes, as: field, limit: limit, units: units)
    }

    /// ``stage(_:as:limit:ascii:)`` of bytes known to be valid UTF-8 of `units` UTF-16 units
    /// (the reader that found their end checked them on the way).
    mutating func stage(_ bytes: UnsafeBufferPointer<UInt8>, as field: StagedTexts.Field, limit: Int, units: Int) -> Bool {
        guard units <= limit else { return false }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        let start = Int32(line.distance(to: base))
        texts[field] = start..<(start + Int32(bytes.count))
        return true
    }
}

/// Where a prepared line's staged texts are in the line (``TextStaging``).
package struct StagedTexts: Equatable, Sendable {
    package enum Field { case subject, content }

    package var subject: Range<Int32>?
    package var content: Range<Int32>?

    package init() {}

    package var isEmpty: Bool { subject == nil && content == nil }

    subscript(field: Field) -> Range<Int32>? {
        get { field == .subject ? subject : content }
        set { if field == .subject { subject = newValue } else { content = newValue } }
    }
}

/// The staged texts of a line being folded, as bytes of its line; and, when the texts are to
/// stay in the log, where their bytes are in it.
struct StagedBytes {
    var subject: UnsafeBufferPointer<UInt8>?
    var content: UnsafeBufferPointer<UInt8>?
    /// Where each text is in the log, when the texts stay there (nil: they are copied).
    var logOffsets: (subject: Int, content: Int)?

    /// - Parameters:
    ///   - line: the bytes of the line the texts were staged from.
    ///   - lineOffset: the line's offset in the log, when its texts stay there.
    init(_ texts: StagedTexts, inLine line: UnsafeBufferPointer<UInt8>, lineOffset: Int? = nil) {
        func bytes(_ range: Range<Int32>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: line[Int(range.lowerBound)..<Int(range.upperBound)])
        }
        subject = texts.subject.map(bytes)
        content = texts.content.map(bytes)
        logOffsets = lineOffset.map { ($0 + Int(texts.subject?.lowerBound ?? 0), $0 + Int(texts.content?.lowerBound ?? 0)) }
    }

    /// Where a staged text goes: left in the log when its offset there is known (and a span
    /// can address it: below 512 GiB), else copied into `arena`.
    func span(_ field: StagedTexts.Field, in arena: inout TextArena) -> TextSpan? {
        guard let bytes = field == .subject ? subject : content else { return nil }
        if let offsets = logOffsets {
            let offset = field == .subject ? offsets.subject : offsets.content
            if offset < TextSpan.logLimit { return .inLog(offset: offset, length: bytes.count) }
        }
        return arena.add(bytes: bytes)
    }
}
