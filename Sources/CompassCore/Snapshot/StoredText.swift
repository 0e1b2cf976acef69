/// A subject or content as a section stores it (``ByteReader/optionalText()``).
enum StoredText {
    case none
    case bytes(UnsafeBufferPointer<UInt8>)
    /// Where it is in the log (only in a section that keeps texts as ranges).
    case inLog(TextSpan)
}
