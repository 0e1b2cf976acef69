import Foundation

/// The event-id keys of a snapshot left on disk: sorted 128-bit keys in chunks of
/// ``chunkPairs``, each with its first key and SHA-256 in the snapshot's id index. A lookup
/// reads and checks one chunk (64 KiB), not every id, so an append to a log of a million
/// events checks its one id without reading 16 MB.
///
/// A chunk that does not read back or check sets ``failed``: the caller then replays the
/// log without the snapshot (a lookup never answers from bytes it could not check).
package final class StoredKeys: @unchecked Sendable {
    /// Keys per chunk.
    package static let chunkPairs = 4096

    /// How many keys in all.
    let pairCount: Int
    /// Each chunk's first key, as (high, low) halves.
    let firstKeys: [UInt64]
    let digests: [[UInt8]]
    /// Where each chunk is in the snapshot file.
    let ranges: [Range<Int>]
    private let read: (Range<Int>) -> [UInt8]?
    private let lock = NSLock()
    private var cache: [Int: [UInt64]] = [:]
    private var failedChunk = false

    init(pairCount: Int, firstKeys: [UInt64], digests: [[UInt8]], ranges: [Range<Int>], read: @escaping (Range<Int>) -> [UInt8]?) {
        self.pairCount = pairCount
        self.firstKeys = firstKeys
        self.digests = digests
        self.ranges = ranges
        self.read = read
    }

    /// Whether a chunk did not read back or check.
    package var failed: Bool { lock.withLock { failedChunk } }

    /// Whether the key is stored (false, and ``failed``, when its chunk does not check).
    func contains(_ key: (UInt64, UInt64)) -> Bool {
        // The last chunk whose first key is ≤ the key.
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if (firstKeys[middle * 2], firstKeys[middle * 2 + 1]) <= key { low = middle + 1 } else { high = middle }
        }
        guard low > 0, let chunk = loaded(low - 1) else { return false }
        return EventIdSet.search(chunk, key)
    }

    /// Every key, in order (not cached), or nil when a chunk does not check.
    func allKeys() -> [UInt64]? {
        var keys: [UInt64] = []
        keys.reserveCapacity(pairCount * 2)
        for index in ranges.indices {
            guard let chunk = lock.withLock({ cache[index] }) ?? checked(index) else {
                lock.withLock { failedChunk = true }
                return nil
            }
            keys += chunk
        }
        return keys
    }

    private func loaded(_ index: Int) -> [UInt64]? {
        if let chunk = lock.withLock({ cache[index] }) { return chunk }
        guard let chunk = checked(index) else {
            lock.withLock { failedChunk = true }
            return nil
        }
        lock.withLock { cache[index] = chunk }
        return chunk
    }

    private func checked(_ index: Int) -> [UInt64]? {
        guard let bytes = read(ranges[index]), bytes.count == ranges[index].count, bytes.count % 16 == 0,
              SHA256.digest(bytes) == digests[index] else { return nil }
        return Self.keys(bytes)
    }

    /// Little-endian (high, low) pairs as they are stored.
    static func keys<C: Collection>(_ bytes: C) -> [UInt64] where C.Element == UInt8 {
        var keys = [UInt64](repeating: 0, count: bytes.count / 8)
        keys.withUnsafeMutableBytes { target in
            _ = bytes.withContiguousStorageIfAvailable { target.copyMemory(from: UnsafeRawBufferPointer($0)) }
                ?? { Array(bytes).withUnsafeBytes { target.copyMemory(from: $0) } }()
        }
        for index in keys.indices { keys[index] = UInt64(littleEndian: keys[index]) }
        return keys
    }
}
