import CompassCore

/// Rows for `COPY … FROM STDIN` in PostgreSQL's text format: fields split by tabs, rows
/// ended by newlines, each field escaped (``CopyText``).
struct CopyRows {
    /// The rows so far, ready to send.
    private(set) var bytes: [UInt8] = []
    /// Whether the row being built has a field yet (the next one is preceded by a tab).
    private var rowStarted = false

    /// Adds a field of `text`'s UTF-8 bytes to the current row.
    mutating func field(_ text: String) {
        separate()
        CopyText.append(text, into: &bytes)
    }

    /// Adds a field of `value` in decimal to the current row.
    mutating func field(_ value: Int64) { field(String(value)) }

    /// Adds a field of raw bytes (a line) to the current row.
    mutating func field(bytes field: ArraySlice<UInt8>) {
        separate()
        CopyText.append(field, into: &bytes)
    }

    /// A tab before every field of a row but its first.
    private mutating func separate() {
        if rowStarted { bytes.append(0x09) }
        rowStarted = true
    }

    /// Ends the current row.
    mutating func endRow() {
        bytes.append(0x0A)
        rowStarted = false
    }

    /// Whether no row was added.
    var isEmpty: Bool { bytes.isEmpty }
}
