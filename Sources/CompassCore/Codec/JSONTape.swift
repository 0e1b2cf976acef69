import CompassMachine

/// Where every value of a scanned JSON document is: one token per value, in document order.
///
/// ``scan(_:)`` is the whole grammar of ``JSONParser`` (strict RFC 8259, valid UTF-8, paired
/// surrogates, no duplicate keys, depth ≤ ``JSONParser/maxDepth``); it allocates nothing
/// but the token array, whose capacity is kept from one document to the next. Values are
/// built from the tokens only when asked for.
package struct JSONTape: Sendable {
    enum Kind: UInt8 {
        case null, `true`, `false`, integer, number, string, object, array
    }

    struct Token {
        var kind: Kind
        /// A string with `\` escapes (it must be decoded, not copied).
        var escaped = false
        /// A string of ASCII bytes only, with no escapes: equal keys have equal bytes.
        var plain = false
        /// The first byte (for a string, the one after the opening quote).
        var start: Int
        /// Past the last byte (for a string, the closing quote).
        var end: Int
        /// The token after this value and everything inside it.
        var next: Int
        /// Members of an object, elements of an array; for a plain key, its fingerprint.
        var count = 0
        /// For an object: one bit per key's fingerprint (``JSONTape/keyBit(_:)``), every bit
        /// when a key is not plain. A key whose bit is clear is not in the object.
        var keyBits: UInt64 = 0
    }

    var tokens: [Token] = []

    package init() {}

    /// Checks one whole document and records its values; false when it is not valid JSON.
    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        tokens.removeAll(keepingCapacity: true)
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        var scanner = Scanner(p: base, n: bytes.count)
        swap(&scanner.tokens, &tokens)
        let valid = scanner.document()
        swap(&scanner.tokens, &tokens)
        return valid
    }

    /// Where the string value of a top-level key is in the bytes of a scanned object document,
    /// when the key and the value are written without escapes (nil otherwise). An erasure
    /// rewrites `prev` in place through it.
    package func plainStringRange(ofKey key: StaticString, in base: UnsafePointer<UInt8>) -> Range<Int>? {
        guard let value = topLevelValue(ofKey: key, in: base), value.kind == .string, !value.escaped else { return nil }
        return value.start..<value.end
    }

    /// Where the integer value of a top-level key (written with a plain key) is in the bytes of
    /// a scanned object document: `compass migrate` renumbers `seq` in place through it.
    package func integerRange(ofKey key: StaticString, in base: UnsafePointer<UInt8>) -> Range<Int>? {
        guard let value = topLevelValue(ofKey: key, in: base), value.kind == .integer else { return nil }
        return value.start..<value.end
    }

    private func topLevelValue(ofKey key: StaticString, in base: UnsafePointer<UInt8>) -> Token? {
        guard let root = tokens.first, root.kind == .object else { return nil }
        let wanted = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        var name = 1
        for _ in 0..<root.count {
            let token = tokens[name]
            let value = tokens[name + 1]
            if token.plain, token.end - token.start == wanted.count,
               (0..<wanted.count).allSatisfy({ base[token.start + $0] == wanted[$0] }) {
                return value
            }
            name = value.next
        }
        return nil
    }

    /// The fingerprint of a plain key's bytes: its length and up to sixteen of its bytes.
    @inline(__always) static func fingerprint(_ p: UnsafePointer<UInt8>, count length: Int) -> Int {
        var bits: UInt64 = 0
        if length >= 8 {
            let head = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
            let tail = UnsafeRawPointer(p + length - 8).loadUnaligned(as: UInt64.self)
            bits = head ^ (tail &* 0x9E37_79B9_7F4A_7C15)
        } else {
            for k in 0..<length { bits = bits << 8 | UInt64(p[k]) }
        }
        return Int(truncatingIfNeeded: bits ^ (UInt64(truncatingIfNeeded: length) &<< 56))
    }

    /// The bit a key's fingerprint sets in its object's ``Token/keyBits``.
    @inline(__always) static func keyBit(_ fingerprint: Int) -> UInt64 {
        1 &<< ((UInt64(bitPattern: Int64(fingerprint)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// The value of token `index` of a document scanned from the bytes at `base`.
    func value(at index: Int, in base: UnsafePointer<UInt8>) -> JSONValue {
        let token = tokens[index]
        switch token.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .integer:
            if let integer = Self.int64(base, token.start, token.end) { return .int(integer) }
            return .number(Self.double(base, token.start, token.end)!)
        case .number: return .number(Self.double(base, token.start, token.end)!)
        case .string: return .string(Self.string(token, base))
        case .object:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(token.count)
            var key = index + 1
            for _ in 0..<token.count {
                members.append(JSONObject.Member(Self.string(tokens[key], base), value(at: key + 1, in: base)))
                key = tokens[key + 1].next
            }
            return .object(JSONObject(members))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(token.count)
            var element = index + 1
            for _ in 0..<token.count {
                elements.append(value(at: element, in: base))
                element = tokens[element].next
            }
            return .array(elements)
        }
    }

    /// The text of a string token (already checked to be valid).
    static func string(_ token: Token, _ base: UnsafePointer<UInt8>) -> String {
        let raw = UnsafeBufferPointer(start: base + token.start, count: token.end - token.start)
        guard token.escaped else { return String(decoding: raw, as: UTF8.self) }
        // The scan checked every escape: the body decodes.
        return String(decoding: JSONEscapes.decoded(raw) ?? [], as: UTF8.self)
    }

    @inline(__always) package static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Where a run of plain string bytes from `start` stops: at the first quote, backslash,
    /// control character or non-ASCII byte, taken sixteen bytes at a time on x86-64 and eight
    /// elsewhere (the bulk of every text field); or where fewer than eight bytes are left, the
    /// rest for the caller to take a byte at a time.
    @inline(__always) static func plainRunEnd(_ p: UnsafePointer<UInt8>, from start: Int, to n: Int) -> Int {
        #if arch(x86_64) && !COMPASS_PORTABLE
        // Sixteen bytes at a time (SSE2, in C): a line's content is a run of a few hundred
        // bytes, and eight at a time it was a quarter of the direct reader's instructions.
        return compass_plain_run_end(p, start, n)
        #else
        return portablePlainRunEnd(p, from: start, to: n)
        #endif
    }

    /// ``plainRunEnd(_:from:to:)`` in Swift, eight bytes at a time: the path off x86-64, and
    /// what the tests hold the SSE2 one to.
    @inline(__always) static func portablePlainRunEnd(_ p: UnsafePointer<UInt8>, from start: Int, to n: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var at = start
        while n &- at >= 8 {
            let x = UnsafeRawPointer(p + at).loadUnaligned(as: UInt64.self)
            let quote = x ^ (ones &* 0x22)
            let backslash = x ^ (ones &* 0x5C)
            let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((x &- ones &* 0x20) & ~x)
            let stops = (x | special) & highs
            if stops != 0 {
                // Straight to the first byte that stops the run (the lowest flag is exact: a
                // false flag can only follow a true one, from the borrow).
                return at &+ stops.trailingZeroBitCount &>> 3
            }
            at &+= 8
        }
        return at
    }

    /// The integer an `-?digits` literal spells, or nil when it does not fit in 64 bits.
    static func int64(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
        var i = start
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var value: Int64 = 0  // accumulated negative, so Int64.min fits
        while i < end {
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = shifted.subtractingReportingOverflow(Int64(base[i] - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = next
            i += 1
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    static func double(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self))
    }
}

/// An object of a scanned document, read in place: a field's value is built only when asked
/// for (the rest of the object never becomes a tree).
struct TapeObject: JSONFields {
    let tape: JSONTape
    let base: UnsafePointer<UInt8>
    /// The object's token.
    let index: Int
    /// Where the next search starts: the key token and the ordinal of the field after the last
    /// one found. Readers ask for fields in about the order writers write them, so a search
    /// from there most often ends at its first key (keys are unique: where a search starts
    /// never changes what it finds).
    private let cursor: UnsafeMutablePointer<Int>
    /// Where long texts are staged instead of built (replay's fast path), if anywhere.
    private let staging: UnsafeMutablePointer<TextStaging>?

    private init(tape: JSONTape, base: UnsafePointer<UInt8>, index: Int, cursor: UnsafeMutablePointer<Int>,
                 staging: UnsafeMutablePointer<TextStaging>?) {
        self.tape = tape
        self.base = base
        self.index = index
        self.cursor = cursor
        self.staging = staging
    }

    /// Calls `body` with the object read through a search cursor kept on the stack (no
    /// allocation); the object must not outlive the call.
    ///
    /// - Parameter staging: where ``stageText(_:as:limit:)`` puts texts; nil stages nothing.
    static func reading<R>(tape: JSONTape, base: UnsafePointer<UInt8>, index: Int, staging: UnsafeMutablePointer<TextStaging>? = nil,
                           _ body: (TapeObject) -> R) -> R {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2) { cursor in
            cursor.initialize(repeating: 0)
            cursor[0] = index + 1
            return body(TapeObject(tape: tape, base: base, index: index, cursor: cursor.baseAddress!, staging: staging))
        }
    }

    /// Stages a plain (unescaped) string's bytes when a staging is given (``TextStaging``).
    func stageText(_ key: String, as field: StagedTexts.Field, limit: Int) -> Bool {
        guard let staging, let index = valueToken(key) else { return false }
        let token = tape.tokens[index]
        guard token.kind == .string, !token.escaped else { return false }
        return staging.pointee.stage(UnsafeBufferPointer(start: base + token.start, count: token.end - token.start), as: field, limit: limit,
                                     ascii: token.plain)
    }

    subscript(key: String) -> JSONValue? {
        valueToken(key).map { tape.value(at: $0, in: base) }
    }

    /// A plain string read in place; only an escaped one is decoded first.
    func withText<R>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> JSONTextField<R> {
        guard let index = valueToken(key) else { return .absent }
        let token = tape.tokens[index]
        switch token.kind {
        case .null: return .absent
        case .string where !token.escaped: return .text(body(UnsafeBufferPointer(start: base + token.start, count: token.end - token.start)))
        case .string:
            var text = JSONTape.string(token, base)
            return .text(text.withUTF8(body))
        default: return .notText
        }
    }

    /// The token of `key`'s value, or nil when the object has no such key.
    private func valueToken(_ key: String) -> Int? {
        let tokens = tape.tokens
        let count = tokens[index].count
        guard count > 0 else { return nil }
        var name = cursor[0]
        var ordinal = cursor[1]
        var key = key
        return key.withUTF8 { wanted -> Int? in
            // A key whose bit is clear in the object's key bits is not there: no search.
            if let start = wanted.baseAddress, tokens[index].keyBits & JSONTape.keyBit(JSONTape.fingerprint(start, count: wanted.count)) == 0 {
                return nil
            }
            for _ in 0..<count {
                let token = tokens[name]
                let length = token.end - token.start
                let matches = token.plain
                    ? length == wanted.count && (length == 0 || ByteCompare.equal(base + token.start, wanted.baseAddress!, count: length))
                    : JSONTape.string(token, base).utf8.elementsEqual(wanted)
                // The field after this one, the first again after the last.
                ordinal += 1
                let found = name + 1
                name = ordinal == count ? index + 1 : tokens[name + 1].next
                if ordinal == count { ordinal = 0 }
                if matches {
                    (cursor[0], cursor[1]) = (name, ordinal)
                    return found
                }
            }
            return nil
        }
    }
}

/// The scanning pass of ``JSONTape``: a recursive descent over raw bytes.
private struct Scanner {
    typealias Token = JSONTape.Token
    let p: UnsafePointer<UInt8>
    let n: Int
    var i = 0
    var tokens: [Token] = []

    init(p: UnsafePointer<UInt8>, n: Int) {
        self.p = p
        self.n = n
    }

    mutating func document() -> Bool {
        skipWhitespace()
        guard value(depth: 0) else { return false }
        skipWhitespace()
        return i == n
    }

    @inline(__always) mutating func skipWhitespace() {
        while i < n {
            switch p[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) -> Bool {
        guard i < n, depth <= JSONParser.maxDepth else { return false }
        switch p[i] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true", .true)
        case UInt8(ascii: "f"): return literal("false", .false)
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind) -> Bool {
        let count = word.utf8CodeUnitCount
        guard n - i >= count, Self.equal(p + i, word.utf8Start, count) else { return false }
        tokens.append(Token(kind: kind, start: i, end: i + count, next: tokens.count + 1))
        i += count
        return true
    }

    mutating func object(depth: Int) -> Bool {
        let index = open(.object)
        var count = 0
        var seen: Set<String>?  // for large objects, so duplicate checks stay linear
        // One bit per plain key's fingerprint: a key whose bit is clear cannot repeat an
        // earlier plain key, so the pairwise check runs only on a hit (or after a key that is
        // not plain, which may spell a plain one with escapes).
        var bloom: UInt64 = 0
        var onlyPlain = true
        if closesEmpty(index, UInt8(ascii: "}")) { return true }
        while true {
            skipWhitespace()
            guard i < n, p[i] == UInt8(ascii: "\"") else { return false }
            let key = tokens.count
            guard string() else { return false }
            var mayRepeat = true
            if tokens[key].plain {
                let print = JSONTape.fingerprint(p + tokens[key].start, count: tokens[key].end - tokens[key].start)
                tokens[key].count = print
                let bit = JSONTape.keyBit(print)
                mayRepeat = !onlyPlain || seen != nil || bloom & bit != 0
                bloom |= bit
            } else {
                onlyPlain = false
            }
            guard !mayRepeat || !isDuplicate(key, in: index, count: count, seen: &seen) else { return false }
            skipWhitespace()
            guard i < n, p[i] == UInt8(ascii: ":") else { return false }
            i += 1
            skipWhitespace()
            guard value(depth: depth + 1) else { return false }
            count += 1
            switch afterItem(index, count: count, closing: UInt8(ascii: "}")) {
            case .next: continue
            case .closed:
                tokens[index].keyBits = onlyPlain ? bloom : ~0
                return true
            case .invalid: return false
            }
        }
    }

    mutating func array(depth: Int) -> Bool {
        let index = open(.array)
        var count = 0
        if closesEmpty(index, UInt8(ascii: "]")) { return true }
        while true {
            skipWhitespace()
            guard value(depth: depth + 1) else { return false }
            count += 1
            switch afterItem(index, count: count, closing: UInt8(ascii: "]")) {
            case .next: continue
            case .closed: return true
            case .invalid: return false
            }
        }
    }

    /// Records a container's token at its opening byte and steps past it.
    mutating func open(_ kind: JSONTape.Kind) -> Int {
        let index = tokens.count
        tokens.append(Token(kind: kind, start: i, end: i, next: index + 1))
        i += 1
        skipWhitespace()
        return index
    }

    /// Closes an empty container when its closing byte comes first.
    mutating func closesEmpty(_ index: Int, _ closing: UInt8) -> Bool {
        guard i < n, p[i] == closing else { return false }
        i += 1
        close(index, count: 0)
        return true
    }

    enum Step { case next, closed, invalid }

    /// After a member or element: `,` (another follows), the closing byte, or anything else.
    mutating func afterItem(_ index: Int, count: Int, closing: UInt8) -> Step {
        skipWhitespace()
        guard i < n else { return .invalid }
        if p[i] == UInt8(ascii: ",") {
            i += 1
            return .next
        }
        guard p[i] == closing else { return .invalid }
        i += 1
        close(index, count: count)
        return .closed
    }

    mutating func close(_ index: Int, count: Int) {
        tokens[index].end = i
        tokens[index].next = tokens.count
        tokens[index].count = count
    }

    /// Whether key token `key` equals an earlier key of the object at `object`. Keys are
    /// compared as the strings they decode to (as Swift compares strings), plain ones by bytes.
    mutating func isDuplicate(_ key: Int, in object: Int, count: Int, seen: inout Set<String>?) -> Bool {
        let token = tokens[key]
        if seen == nil, count >= 32 {
            var keys = Set<String>(minimumCapacity: count * 2)
            var earlier = object + 1
            for _ in 0..<count {
                keys.insert(text(tokens[earlier]))
                earlier = tokens[earlier + 1].next
            }
            seen = keys
        }
        if seen != nil { return !seen!.insert(text(token)).inserted }
        var earlier = object + 1
        for _ in 0..<count {
            let other = tokens[earlier]
            if token.plain && other.plain {
                // Equal keys have equal fingerprints: most pairs are told apart by one comparison.
                let length = token.end - token.start
                if other.count == token.count, other.end - other.start == length,
                   Self.equal(p + token.start, p + other.start, length) { return true }
            } else if text(token) == text(other) {
                return true
            }
            earlier = tokens[earlier + 1].next
        }
        return false
    }

    /// The text of a string token (a key compared when its bytes differ, escapes decoded).
    func text(_ token: Token) -> String {
        JSONTape.string(token, p)
    }

    /// Scans a string from its opening quote: no raw control characters, known escapes,
    /// paired surrogates, valid UTF-8.
    mutating func string() -> Bool {
        let start = i + 1
        var at = start  // a local index (not `self.i`) keeps the hot loop in registers
        let p = self.p, n = self.n
        var escaped = false
        var ascii = true
        while true {
            at = JSONTape.plainRunEnd(p, from: at, to: n)
            guard at < n else { return false }
            let byte = p[at]
            if byte == UInt8(ascii: "\"") {
                tokens.append(Token(kind: .string, escaped: escaped, plain: ascii && !escaped, start: start, end: at, next: tokens.count + 1))
                i = at &+ 1
                return true
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                i = at
                guard escape() else { return false }
                at = i
            } else if byte < 0x20 {
                return false
            } else if byte < 0x80 {
                at &+= 1
            } else {
                ascii = false
                i = at
                guard utf8Sequence() else { return false }
                at = i
            }
        }
    }

    /// Scans one escape from its `\`.
    mutating func escape() -> Bool {
        guard i + 1 < n else { return false }
        switch p[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
            return true
        case UInt8(ascii: "u"):
            i += 2
            guard let first = hex4() else { return false }
            if (0xDC00...0xDFFF).contains(first) { return false }  // a lone low surrogate
            guard (0xD800...0xDBFF).contains(first) else { return true }
            guard n - i >= 6, p[i] == UInt8(ascii: "\\"), p[i + 1] == UInt8(ascii: "u") else { return false }
            i += 2
            guard let second = hex4() else { return false }
            return (0xDC00...0xDFFF).contains(second)
        default:
            return false
        }
    }

    mutating func hex4() -> UInt32? {
        guard n - i >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONTape.hexDigit(p[i]) else { return nil }
            value = value << 4 | UInt32(digit)
            i += 1
        }
        return value
    }

    /// Scans one multi-byte UTF-8 sequence (Unicode Table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF).
    mutating func utf8Sequence() -> Bool {
        let lead = p[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return false
        }
        guard n - i >= length else { return false }
        let second = p[i + 1]
        guard second >= low, second <= high else { return false }
        for k in 2..<max(2, length) where p[i + k] & 0xC0 != 0x80 { return false }
        i += length
        return true
    }

    mutating func number() -> Bool {
        let start = i
        var integer = true
        if p[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n, isDigit(p[i]) else { return false }
        if p[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < n, isDigit(p[i]) { i += 1 }
        }
        if i < n, p[i] == UInt8(ascii: ".") {
            integer = false
            i += 1
            guard i < n, isDigit(p[i]) else { return false }
            while i < n, isDigit(p[i]) { i += 1 }
        }
        if i < n, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
            integer = false
            i += 1
            if i < n, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
            guard i < n, isDigit(p[i]) else { return false }
            while i < n, isDigit(p[i]) { i += 1 }
        }
        // Whatever the tree will hold must exist: a number must read as a Double.
        if !integer || JSONTape.int64(p, start, i) == nil {
            guard JSONTape.double(p, start, i) != nil else { return false }
        }
        tokens.append(Token(kind: integer ? .integer : .number, start: start, end: i, next: tokens.count + 1))
        return true
    }

    @inline(__always) static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for k in 0..<count where a[k] != b[k] { return false }
        return true
    }

    @inline(__always) func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
