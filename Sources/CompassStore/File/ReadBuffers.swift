import CompassCore
import Dispatch
import Foundation

/// The three buffers the log is read into, taking turns: the current one's lines are prepared
/// while the next bytes are read into the other, and the previous one's last block may still
/// be folding (its lines' staged texts are read in place). It owns them: they are freed with it,
/// and it cannot be copied.
struct ReadBuffers: ~Copyable {
    private(set) var current: UnsafeMutableBufferPointer<UInt8>
    private(set) var other: UnsafeMutableBufferPointer<UInt8>
    private var previous: UnsafeMutableBufferPointer<UInt8>

    /// Three buffers of `capacity` bytes (not zero-filled: only the bytes read into them are
    /// ever looked at).
    init(capacity: Int) {
        current = .allocate(capacity: capacity)
        other = .allocate(capacity: capacity)
        previous = .allocate(capacity: capacity)
    }

    /// Makes the other buffer hold at least `capacity` bytes (its contents are not kept).
    mutating func reserveOther(_ capacity: Int) {
        guard other.count < capacity else { return }
        other.deallocate()
        other = .allocate(capacity: capacity)
    }

    /// The other buffer becomes the current one, the current one the previous one, and the
    /// previous one is read into next: a block still to fold must not read from it.
    mutating func swap() {
        (current, other, previous) = (other, previous, current)
    }

    deinit {
        current.deallocate()
        other.deallocate()
        previous.deallocate()
    }
}
