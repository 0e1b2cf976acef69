/// PostgreSQL's `COPY` text format for one field: backslash, tab, newline and carriage
/// return escaped, every other byte as it is.
package enum CopyText {
    /// Appends `text`'s UTF-8 bytes to `out`, escaped.
    package static func append(_ text: String, into out: inout [UInt8]) { escape(text.utf8, into: &out) }

    /// Appends `bytes` to `out`, escaped.
    package static func append(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) { escape(bytes, into: &out) }

    /// The two above, specialized for each (a generic loop across modules cost the import
    /// most of its time): the runs between escapes are copied whole.
    @inline(__always)
    private static func escape<Field: Collection<UInt8>>(_ field: Field, into out: inout [UInt8]) {
        var start = field.startIndex
        var index = start
        while index != field.endIndex {
            let escaped: UInt8
            switch field[index] {
            case 0x5C: escaped = 0x5C  // \\
            case 0x09: escaped = 0x74  // \t
            case 0x0A: escaped = 0x6E  // \n
            case 0x0D: escaped = 0x72  // \r
            default:
                field.formIndex(after: &index)
                continue
            }
            out.append(contentsOf: field[start..<index])
            out.append(0x5C)
            out.append(escaped)
            field.formIndex(after: &index)
            start = index
        }
        out.append(contentsOf: field[start..<index])
    }
}
