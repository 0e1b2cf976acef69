import CompassCore
import Foundation

/// The problems of a `replay` or `verify`, collected in bounded memory while the log streams
/// past: up to 1 MiB of them encoded in memory, the rest in an unlinked temporary file, then
/// read back in order for the output (whose counts come before the list).
package final class ProblemSpool: @unchecked Sendable {
    package private(set) var count = 0
    /// The line of the first chain problem (a broken or missing `prev`).
    package private(set) var firstChainLine: Int?
    private var memory: [UInt8] = []
    private var file: Int32 = -1
    private var spilled = 0
    private let lock = NSLock()
    package static let memoryLimit = 1 << 20

    package init() {}

    deinit { if file >= 0 { close(file) } }

    /// Adds one problem (called by the replay as it finds them).
    package func add(_ problem: Problem) {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        if problem.kind == .chain, firstChainLine == nil { firstChainLine = problem.line }
        var line = UInt64(problem.line).littleEndian
        withUnsafeBytes(of: &line) { memory += $0 }
        memory.append(problem.kind.rawValue)
        var length = UInt32(problem.message.utf8.count).littleEndian
        withUnsafeBytes(of: &length) { memory += $0 }
        memory += problem.message.utf8
        if memory.count >= Self.memoryLimit { spill() }
    }

    private func spill() {
        if file < 0 {
            var template = Array((NSTemporaryDirectory() + "/compass-problems-XXXXXX").utf8CString)
            file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if file >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
        }
        // Without a temporary file the problems stay in memory: output over bounds.
        guard file >= 0 else { return }
        var offset = 0
        while offset < memory.count {
            let n = memory.withUnsafeBytes { pwrite(file, $0.baseAddress! + offset, $0.count - offset, off_t(spilled + offset)) }
            if n <= 0 { if n < 0, errno == EINTR { continue }; return }
            offset += n
        }
        spilled += memory.count
        memory.removeAll(keepingCapacity: true)
    }

    /// Every problem in the order added.
    package func forEach(_ body: (Problem) -> Void) {
        var chunk = [UInt8](repeating: 0, count: Self.memoryLimit)
        var pending: [UInt8] = []
        var offset = 0
        while file >= 0, offset < spilled {
            let n = chunk.withUnsafeMutableBytes { pread(file, $0.baseAddress!, min($0.count, spilled - offset), off_t(offset)) }
            if n <= 0 { if n < 0, errno == EINTR { continue }; break }
            pending += chunk[0..<n]
            offset += n
            let used = decode(pending, body)
            pending.removeFirst(used)
        }
        _ = decode(pending + memory, body)
    }

    /// Decodes whole records; returns the bytes used.
    private func decode(_ bytes: [UInt8], _ body: (Problem) -> Void) -> Int {
        var at = 0
        while bytes.count - at >= 13 {
            let line = bytes[at..<(at + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let kind = ProblemKind(rawValue: bytes[at + 8]) ?? .rule
            let length = bytes[(at + 9)..<(at + 13)].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard bytes.count - at - 13 >= length else { break }
            let message = String(decoding: bytes[(at + 13)..<(at + 13 + length)], as: UTF8.self)
            body(Problem(line: Int(line), message: message, kind: kind))
            at += 13 + length
        }
        return at
    }
}
