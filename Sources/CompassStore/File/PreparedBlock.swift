import CompassCore
import Dispatch
import Foundation

/// One block's complete lines, prepared in chunks by a worker and by whichever thread calls
/// ``finishPreparing()`` or ``foldWhilePreparing(into:)``, then folded in order. A block is
/// reused for block after block.
final class PreparedBlock: @unchecked Sendable {
    package static let chunkSize = 128
    /// How many lines ahead of the fold the table slots a line's event looks up are prefetched.
    static let prefetchDistance = 6
    /// How many lines ahead of the fold the school and coach records it reads are prefetched
    /// (their slots loaded by then).
    static let recordPrefetchDistance = 2
    /// How many lines ahead of the fold a prepared line's memory is prefetched.
    static let linePrefetchDistance = 14

    private var ranges: [Range<Int>] = []
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var out = UnsafeMutablePointer<PreparedLine>.allocate(capacity: 1)
    private var capacity = 1
    private var keepingPayload = false
    /// Guards `nextChunk` and `chunkReady`; signalled when a chunk is ready.
    private let condition = NSCondition()
    private let done = DispatchGroup()
    private var nextChunk = 0         // the first chunk no thread has claimed
    private var chunkReady: [Bool] = []
    private var chunkCount = 0  // set before the worker starts, read without the lock
    private var folded = 0     // lines moved out by fold
    private var ready = true
    /// What the block's worker, and the thread that folds the block when it prepares chunks
    /// of it, keep from line to line and block to block (shared with the other block).
    private let scratches: PreparingScratches

    /// A block prepared with `scratches` (shared with the other block, never prepared at the
    /// same time).
    init(scratches: PreparingScratches) {
        self.scratches = scratches
    }

    /// Starts preparing `ranges` of `bytes` on a worker; `bytes` must stay valid until the
    /// block's lines are all folded or discarded (the fold reads the texts the lines staged
    /// there). The block's earlier lines must all be folded or discarded.
    package func start(ranges: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>, keepingPayload: Bool) {
        precondition(ready && folded == self.ranges.count && !scratches.inUse, "a block starts after the one before it is prepared")
        self.ranges = ranges
        self.bytes = bytes
        self.keepingPayload = keepingPayload
        if ranges.count > capacity {
            out.deallocate()
            capacity = ranges.count
            out = .allocate(capacity: capacity)
        }
        nextChunk = 0
        chunkCount = (ranges.count + Self.chunkSize - 1) / Self.chunkSize
        chunkReady = [Bool](repeating: false, count: chunkCount)
        folded = 0
        ready = false
        scratches.inUse = true
        if ranges.count > Self.chunkSize {
            done.enter()
            DispatchQueue.global().async {
                while self.prepareOneChunk(&self.scratches.worker) {}
                self.done.leave()
            }
        }
    }

    /// Prepares what no one has claimed yet, then waits for the worker.
    package func finishPreparing() {
        while prepareOneChunk(&scratches.folder) {}
        done.wait()
        ready = true
        scratches.inUse = false
    }

    /// Folds the lines in order while they are being prepared: each chunk as soon as it is
    /// ready, and while the next is not, this thread prepares one no one has claimed. The last
    /// block of a log is folded so, and its fold is not left to run alone at the end. False
    /// once a cut is reached.
    package func foldWhilePreparing(into replayer: inout Replayer) -> Bool {
        precondition(!ready && folded == 0)
        defer {
            while prepareOneChunk(&scratches.folder) {}  // after a cut, what is left is prepared to be discarded
            done.wait()
            ready = true
            scratches.inUse = false
        }
        for chunk in 0..<chunkCount {
            while !isReady(chunk) {
                if !prepareOneChunk(&scratches.folder) { waitUntilReady(chunk) }
            }
            let end = min((chunk + 1) * Self.chunkSize, ranges.count)
            while folded < end {
                if folded + Self.linePrefetchDistance < end { PreparedLine.prefetch(out + folded + Self.linePrefetchDistance) }
                if folded + Self.prefetchDistance < end { prefetch(out + folded + Self.prefetchDistance, into: &replayer) }
                if folded + Self.recordPrefetchDistance < end { prefetchRecords(out + folded + Self.recordPrefetchDistance, into: &replayer) }
                folded += 1
                if !consumeLine(at: folded - 1, into: &replayer) { return false }
            }
        }
        return true
    }

    /// Folds the line at `index` where it lies, with its bytes when it staged texts, and frees
    /// it (the caller has counted it folded, so ``discard()`` does not free it again).
    @inline(__always) private func consumeLine(at index: Int, into replayer: inout Replayer) -> Bool {
        let line = out + index
        defer { line.deinitialize(count: 1) }
        guard !line.pointee.staged.isEmpty else { return replayer.consume(prepared: &line.pointee) }
        return replayer.consume(prepared: &line.pointee, bytes: UnsafeBufferPointer(rebasing: bytes[ranges[index]]))
    }

    /// Whether the block's lines are read from `buffer`.
    func reads(from buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        bytes.baseAddress == UnsafePointer(buffer.baseAddress)
    }

    /// Claims the next chunk and prepares it; false when every chunk is claimed.
    private func prepareOneChunk(_ scratch: inout PreparingScratch) -> Bool {
        condition.lock()
        guard nextChunk < chunkCount else {
            condition.unlock()
            return false
        }
        let chunk = nextChunk
        nextChunk += 1
        condition.unlock()
        let lines = (chunk * Self.chunkSize)..<min((chunk + 1) * Self.chunkSize, ranges.count)
        withUnsafeTemporaryAllocation(of: LineHash.self, capacity: Self.chunkSize) { hashes in
            // Two lines at a time: their blocks go through the SHA unit together.
            ranges.withUnsafeBufferPointer { all in
                SHA256.lineHashes(of: UnsafeBufferPointer(rebasing: all[lines]), in: bytes, into: hashes.baseAddress!)
            }
            for index in lines {
                let line = UnsafeBufferPointer(rebasing: bytes[ranges[index]])
                PreparedLine.prepare(line, hash: hashes[index - lines.lowerBound], keepingPayload: keepingPayload, tape: &scratch.tape,
                                     ids: &scratch.ids, stagingTexts: true, into: out + index)
            }
        }
        condition.lock()
        chunkReady[chunk] = true
        condition.broadcast()
        condition.unlock()
        return true
    }

    private func isReady(_ chunk: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return chunkReady[chunk]
    }

    private func waitUntilReady(_ chunk: Int) {
        condition.lock()
        while !chunkReady[chunk] { condition.wait() }
        condition.unlock()
    }

    /// Folds the prepared lines in order; false once a cut is reached.
    package func fold(into replayer: inout Replayer) -> Bool {
        precondition(ready)
        while folded < ranges.count {
            if folded + Self.linePrefetchDistance < ranges.count { PreparedLine.prefetch(out + folded + Self.linePrefetchDistance) }
            if folded + Self.prefetchDistance < ranges.count { prefetch(out + folded + Self.prefetchDistance, into: &replayer) }
            if folded + Self.recordPrefetchDistance < ranges.count { prefetchRecords(out + folded + Self.recordPrefetchDistance, into: &replayer) }
            folded += 1
            if !consumeLine(at: folded - 1, into: &replayer) { return false }
        }
        return true
    }

    /// Starts loading what folding `line` will look up first. (The replayer is passed as the
    /// fold holds it, `inout`: passed by value it was copied, 400 bytes, for every line.)
    @inline(__always) private func prefetch(_ line: UnsafeMutablePointer<PreparedLine>, into replayer: inout Replayer) {
        Replayer.prefetch(line.pointee.keys, in: &replayer)
    }

    /// Starts loading the school and coach records folding `line` will read (their slots
    /// loaded by ``prefetch(_:into:)`` a few lines before).
    @inline(__always) private func prefetchRecords(_ line: UnsafeMutablePointer<PreparedLine>, into replayer: inout Replayer) {
        Replayer.prefetchRecords(line.pointee.keys, in: &replayer)
    }

    /// Frees the lines not folded.
    package func discard() {
        if !ready { finishPreparing() }
        (out + folded).deinitialize(count: ranges.count - folded)
        folded = ranges.count
    }

    deinit {
        discard()
        out.deallocate()
    }
}

/// Told how far a long read has come: bytes read, bytes in all, lines folded; returns false to
/// stop the read (its task was cancelled): the read then fails with ``StoreError/cancelled``
/// at its next read of the log, the way a failed read fails it, nothing folded twice.
package typealias ReadProgress = (_ done: Int, _ total: Int, _ lines: Int) -> Bool
