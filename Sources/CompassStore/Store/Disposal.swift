import Dispatch

/// Lets go of large values on another thread, so the thread that made them does not wait
/// for thousands of deallocations (an import's decided block, say).
///
/// One value is let go at a time: handing over the next waits until the one before is gone,
/// so memory holds at most one value being freed besides the caller's own.
final class Disposal: @unchecked Sendable {
    private let queue = DispatchQueue(label: "compass.disposal")
    private let pending = DispatchGroup()

    /// Lets go of `value` on the disposal thread.
    func dispose<T>(_ value: consuming T) {
        pending.wait()
        let box = Box(value)
        queue.async(group: pending) { box.value = nil }
    }

    /// Waits until every value handed over is gone.
    func drain() {
        pending.wait()
    }

    private final class Box<T>: @unchecked Sendable {
        var value: T?
        init(_ value: consuming T) { self.value = value }
    }
}
