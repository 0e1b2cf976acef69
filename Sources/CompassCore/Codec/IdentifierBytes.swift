/// An id checked in a line's bytes, where they lie.
extension Identifier {
    /// Whether UTF-8 bytes spell a well-formed id (read in place, before any `String` is built).
    static func isValid(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, (1...64).contains(bytes.count) else { return false }
        return ByteClass.allIdBytes(base, count: bytes.count)
    }
}
