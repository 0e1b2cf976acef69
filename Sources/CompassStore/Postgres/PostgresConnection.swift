import CLibPQ
import CompassCore
/// One connection to PostgreSQL through libpq, which is loaded the first time one is opened.
///
/// Every statement is parameterised (`$1`, `$2`…): values never become SQL text. Results are
/// copied out as text (a `bytea` column comes back as `\x` hex and is decoded).
final class PostgresConnection {
    private let conn: UnsafeMutableRawPointer
    /// The address as messages show it: without a password.
    let display: String

    /// Connects to `address` (a `postgresql://` URI or `key=value` words; libpq also reads the
    /// usual `PG*` variables).
    init(_ address: String) throws(StoreError) {
        display = Self.redacted(address)
        var reason = [CChar](repeating: 0, count: 512)
        guard compass_pq_load(&reason, reason.count) == 1 else {
            throw .io(path: display, message: "a postgresql:// log needs libpq.so.5, PostgreSQL's client library, which is not installed "
                      + "(Debian and Ubuntu: apt-get install libpq5): \(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        guard let opened = compass_pq_connect(address) else { throw .io(path: display, message: "cannot connect to \(display): out of memory") }
        guard compass_pq_ok(opened) == 1 else {
            let message = String(cString: compass_pq_error_message(opened)).trimmingTrailingNewlines
            compass_pq_finish(opened)
            throw .io(path: display, message: "cannot connect to \(display): \(Self.redacted(message))")
        }
        conn = opened
    }

    deinit { compass_pq_finish(conn) }

    /// Whether the connection is still up (libpq marks it bad when the server or the network
    /// drops it).
    var isUp: Bool { compass_pq_ok(conn) == 1 }

    /// Waits until a notification arrives (true) or `milliseconds` pass; the notifications
    /// are taken (their payloads do not matter: the listener reads the store).
    func waitForNotification(milliseconds: Int32) -> Bool {
        if compass_pq_consume_input(conn) == 1, takeNotifications() { return true }
        let socket = compass_pq_socket(conn)
        guard socket >= 0, isUp else {
            usleep(useconds_t(max(0, milliseconds)) * 1000)
            return false
        }
        var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, max(0, milliseconds)) > 0 else { return false }
        _ = compass_pq_consume_input(conn)
        return takeNotifications()
    }

    private func takeNotifications() -> Bool {
        var any = false
        while compass_pq_take_notification(conn) == 1 { any = true }
        return any
    }

    /// A statement's rows, each value as text (nil for NULL).
    struct Rows {
        var rows: [[String?]]
        var count: Int { rows.count }
        subscript(row: Int, column: Int) -> String? { rows[row][column] }
    }

    /// Why a statement failed: its SQLSTATE (`23505` a unique violation…) and message.
    struct Failure: Error {
        var sqlstate: String?
        var message: String
        /// The constraint violated, when one was (`users_pkey`…).
        var constraint: String? = nil
        var isUniqueViolation: Bool { sqlstate == "23505" }
    }

    /// A value for a parameter.
    enum Value {
        case text(String)
        case bytes([UInt8])
        case int(Int64)
        case null
    }

    /// Runs one statement.
    @discardableResult
    func run(_ sql: String, _ values: [Value] = []) throws(Failure) -> Rows {
        let result = try execute(sql, values)
        defer { compass_pq_clear(result) }
        let count = Int(compass_pq_rows(result))
        var rows: [[String?]] = []
        rows.reserveCapacity(count)
        let columns = Int(compass_pq_columns(result))
        for row in 0..<count {
            var fields: [String?] = []
            fields.reserveCapacity(columns)
            for column in 0..<columns {
                if compass_pq_is_null(result, Int32(row), Int32(column)) == 1 { fields.append(nil); continue }
                fields.append(String(decoding: Self.field(result, row, column), as: UTF8.self))
            }
            rows.append(fields)
        }
        return Rows(rows: rows)
    }

    /// Runs a statement whose first column is a stored line: the lines' bytes, each followed
    /// by `\n`, copied straight from libpq's result (no `String` per row), and how many.
    func lines(_ sql: String, _ values: [Value] = []) throws(Failure) -> (bytes: [UInt8], count: Int) {
        let result = try execute(sql, values)
        defer { compass_pq_clear(result) }
        let count = Int(compass_pq_rows(result))
        var total = 0
        for row in 0..<count { total += Int(compass_pq_length(result, Int32(row), 0)) + 1 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        for row in 0..<count {
            bytes.append(contentsOf: Self.field(result, row, 0))
            bytes.append(0x0A)
        }
        return (bytes, count)
    }

    /// Runs a statement whose first column is `bytea`: the first row's bytes as they are
    /// stored (results in binary: no hex to decode), or nil when there is no row.
    func bytes(_ sql: String, _ values: [Value] = []) throws(Failure) -> [UInt8]? {
        let result = try execute(sql, values, binaryResults: true)
        defer { compass_pq_clear(result) }
        guard compass_pq_rows(result) > 0, compass_pq_is_null(result, 0, 0) == 0 else { return nil }
        return Array(Self.field(result, 0, 0))
    }

    /// Runs `COPY … FROM STDIN` with `data` (rows in PostgreSQL's text format).
    func copy(_ sql: String, _ data: [UInt8]) throws(Failure) {
        var error: UnsafePointer<CChar>?
        var state: UnsafePointer<CChar>?
        var constraint: UnsafePointer<CChar>?
        let ok = data.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                compass_pq_copy_in(conn, sql, chars.baseAddress, Int64(chars.count), &error, &state, &constraint)
            }
        }
        guard ok == 1 else {
            let message = error.map { String(cString: $0) } ?? "COPY failed"
            throw Failure(sqlstate: state.map { String(cString: $0) }, message: Self.redacted(message.trimmingTrailingNewlines),
                          constraint: constraint.map { String(cString: $0) })
        }
    }

    /// A field's bytes, valid until the result is cleared.
    private static func field(_ result: UnsafeMutableRawPointer, _ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8> {
        let length = Int(compass_pq_length(result, Int32(row), Int32(column)))
        let start = UnsafeRawPointer(compass_pq_value(result, Int32(row), Int32(column))!).assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: start, count: length)
    }

    /// Sends one statement; its result, which the caller clears.
    private func execute(_ sql: String, _ values: [Value], binaryResults: Bool = false) throws(Failure) -> UnsafeMutableRawPointer {
        // The parameters' bytes, kept alive for the call; bytea is sent in binary.
        var buffers: [[CChar]] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        var isNull: [Bool] = []
        for value in values {
            switch value {
            case .text(let text):
                buffers.append(Array(text.utf8CString)); lengths.append(0); formats.append(0); isNull.append(false)
            case .int(let number):
                buffers.append(Array(String(number).utf8CString)); lengths.append(0); formats.append(0); isNull.append(false)
            case .bytes(let bytes):
                buffers.append(bytes.map { CChar(bitPattern: $0) } + [0]); lengths.append(Int32(bytes.count)); formats.append(1)
                isNull.append(false)
            case .null:
                buffers.append([0]); lengths.append(0); formats.append(0); isNull.append(true)
            }
        }
        let result: UnsafeMutableRawPointer? = withPointers(buffers, isNull) { pointers in
            compass_pq_exec(conn, sql, Int32(values.count), pointers, lengths, formats, binaryResults ? 1 : 0)
        }
        guard let result, compass_pq_result_ok(result) == 1 else {
            defer { compass_pq_clear(result) }
            let message = result.map { String(cString: compass_pq_result_message($0)) } ?? String(cString: compass_pq_error_message(conn))
            let state = result.flatMap { compass_pq_sqlstate($0) }.map { String(cString: $0) }
            let constraint = result.flatMap { compass_pq_constraint($0) }.map { String(cString: $0) }
            throw Failure(sqlstate: state, message: Self.redacted(message.trimmingTrailingNewlines), constraint: constraint)
        }
        return result
    }

    private func withPointers<R>(_ buffers: [[CChar]], _ isNull: [Bool], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafePointer<CChar>?] = []
        func nest(_ index: Int) -> R {
            if index == buffers.count { return body(pointers) }
            return buffers[index].withUnsafeBufferPointer { buffer in
                pointers.append(isNull[index] ? nil : buffer.baseAddress)
                return nest(index + 1)
            }
        }
        return nest(0)
    }

    /// A `bytea` value as text (`\x0a1b…`) decoded.
    static func bytes(fromHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"), digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity((digits.count - 2) / 2)
        var index = 2
        while index < digits.count {
            guard let high = JSONTape.hexDigit(digits[index]), let low = JSONTape.hexDigit(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// `postgresql://user:secret@host/db` → `postgresql://user@host/db`; `password=…` words
    /// hidden too: no password is ever printed.
    static func redacted(_ text: String) -> String {
        var out = text
        if let scheme = out.range(of: "://"), let at = out[scheme.upperBound...].firstIndex(of: "@") {
            let credentials = out[scheme.upperBound..<at]
            if let colon = credentials.firstIndex(of: ":") { out.replaceSubrange(colon..<at, with: "") }
        }
        while let range = out.range(of: "password=") {
            let end = out[range.upperBound...].firstIndex(where: { $0 == " " || $0 == "&" }) ?? out.endIndex
            out.replaceSubrange(range.lowerBound..<end, with: "password=***")
            if out[range.lowerBound...].hasPrefix("password=***") { break }
        }
        return out
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
