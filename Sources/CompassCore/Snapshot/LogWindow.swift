/// Some of the log's bytes as read (`bytes` from log offset `offset`), to take the texts a
/// replay left there from (``TextSpan/inLog(offset:length:)``).
package struct LogWindow {
    package var bytes: UnsafeBufferPointer<UInt8>
    package var offset: Int

    package init(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The log offsets the window holds.
    package var range: Range<Int> { offset..<(offset + bytes.count) }

    /// The bytes of a log range the window holds whole, or nil.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
        guard range.lowerBound >= offset, range.upperBound <= offset + bytes.count else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[(range.lowerBound - offset)..<(range.upperBound - offset)])
    }
}
