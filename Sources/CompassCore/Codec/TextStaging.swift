/// Where replay puts the long texts of a line it prepares (an interaction's subject and
/// content) instead of building a `String` for each: their bytes, copied into a buffer the
/// reader keeps for the line's chunk, to be copied once more into the state's compact storage
/// when the line is folded.
///
/// Building those texts was a heap allocation per field on the preparing thread and a free
/// on the folding one; staged, a chunk of lines reuses one buffer. Only a plain string (no
/// escapes) of valid UTF-8 within the field's limit is staged; anything else is read the
/// usual way, so every message stays the rules' own (a differential test holds a staged
/// replay equal to one without).
package struct TextStaging {
    /// The buffer the texts are appended to (the chunk's; emptied by its owner).
    let buffer: UnsafeMutablePointer<[UInt8]>
    /// The first byte of the line the texts are read from.
    let line: UnsafePointer<UInt8>?
    /// Where each staged field's bytes are in `buffer`, and where they were in the line.
    var texts = StagedTexts()

    package init(buffer: UnsafeMutablePointer<[UInt8]>, line: UnsafePointer<UInt8>? = nil) {
        self.buffer = buffer
        self.line = line
    }

    /// Copies a plain string's bytes into the buffer when they are valid UTF-8 of at most
    /// `limit` UTF-16 units; false (nothing staged) otherwise. An empty text stages as absent.
    ///
    /// - Parameter ascii: the bytes are known to be ASCII (the scanner saw no other byte), so
    ///   they are as many UTF-16 units as bytes and need no second check.
    mutating func stage(_ bytes: UnsafeBufferPointer<UInt8>, as field: StagedTexts.Field, limit: Int, ascii: Bool = false) -> Bool {
        guard let units = ascii ? bytes.count : UTF8Check.utf16Count(ifValid: bytes), units <= limit else { return false }
        guard !bytes.isEmpty else { return true }
        let start = buffer.pointee.count
        buffer.pointee.append(contentsOf: bytes)
        texts[field] = start..<buffer.pointee.count
        if let line, let base = bytes.baseAddress { texts.setOffsetInLine(field, line.distance(to: base)) }
        return true
    }
}

/// The byte ranges of a prepared line's staged texts (``TextStaging``).
package struct StagedTexts: Equatable, Sendable {
    package enum Field { case subject, content }

    package var subject: Range<Int>?
    package var content: Range<Int>?
    /// Where each staged text starts in its line (a line is at most 1 MiB).
    package private(set) var subjectInLine: Int32 = 0
    package private(set) var contentInLine: Int32 = 0

    package init() {}

    mutating func setOffsetInLine(_ field: Field, _ offset: Int) {
        if field == .subject { subjectInLine = Int32(offset) } else { contentInLine = Int32(offset) }
    }

    package var isEmpty: Bool { subject == nil && content == nil }

    subscript(field: Field) -> Range<Int>? {
        get { field == .subject ? subject : content }
        set { if field == .subject { subject = newValue } else { content = newValue } }
    }
}

/// The staged texts of a line being folded, as bytes in its chunk's buffer; and, when the
/// texts are to stay in the log, where their bytes are in it.
struct StagedBytes {
    var subject: UnsafeBufferPointer<UInt8>?
    var content: UnsafeBufferPointer<UInt8>?
    /// Where each text is in the log, when the texts stay there (nil: they are copied).
    var logOffsets: (subject: Int, content: Int)?

    /// - Parameter lineOffset: the line's offset in the log, when its texts stay there.
    init(_ texts: StagedTexts, in buffer: UnsafeBufferPointer<UInt8>, lineOffset: Int? = nil) {
        subject = texts.subject.map { UnsafeBufferPointer(rebasing: buffer[$0]) }
        content = texts.content.map { UnsafeBufferPointer(rebasing: buffer[$0]) }
        logOffsets = lineOffset.map { ($0 + Int(texts.subjectInLine), $0 + Int(texts.contentInLine)) }
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
