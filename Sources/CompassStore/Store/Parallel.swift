import Dispatch
import Foundation

/// Pure work spread over the machine's cores, results in input order.
package enum Parallel {
    /// Below this many items, work stays on the calling thread.
    package static let minimumBatch = 256

    /// `transform` of every item, computed on every core; `transform` must be pure.
    package static func map<T, U>(_ items: [T], minimum: Int = minimumBatch, _ transform: (T) -> U) -> [U] {
        guard items.count >= minimum else { return items.map(transform) }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        return withoutActuallyEscaping(transform) { transform in
            [U](unsafeUninitializedCapacity: items.count) { buffer, count in
                items.withUnsafeBufferPointer { input in
                    // Each worker writes a disjoint range of the output.
                    let shared = Shared(input: input, output: buffer.baseAddress!, transform: transform)
                    DispatchQueue.concurrentPerform(iterations: workers) { worker in
                        let lower = shared.input.count * worker / workers
                        let upper = shared.input.count * (worker + 1) / workers
                        for index in lower..<upper { (shared.output + index).initialize(to: shared.transform(shared.input[index])) }
                    }
                }
                count = items.count
            }
        }
    }

    /// `transform` of every item, each item taken by whichever core is free next (for items
    /// of unequal work: no core waits while another has a fixed share left).
    package static func mapEach<T, U>(_ items: [T], _ transform: (T) -> U) -> [U] {
        guard items.count > 1 else { return items.map(transform) }
        return withoutActuallyEscaping(transform) { transform in
            [U](unsafeUninitializedCapacity: items.count) { buffer, count in
                items.withUnsafeBufferPointer { input in
                    let shared = Shared(input: input, output: buffer.baseAddress!, transform: transform)
                    DispatchQueue.concurrentPerform(iterations: shared.input.count) { index in
                        (shared.output + index).initialize(to: shared.transform(shared.input[index]))
                    }
                }
                count = items.count
            }
        }
    }

    /// ``map(_:minimum:_:)`` with a scratch value per worker (a parser's buffers, say), made by
    /// `makeScratch` and handed to every `transform` that worker runs.
    package static func map<T, U, S>(_ items: [T], minimum: Int = minimumBatch, scratch makeScratch: () -> S,
                                     _ transform: (T, inout S) -> U) -> [U] {
        guard items.count >= minimum else {
            var scratch = makeScratch()
            return items.map { transform($0, &scratch) }
        }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        return withoutActuallyEscaping(transform) { transform in
            withoutActuallyEscaping(makeScratch) { makeScratch in
                [U](unsafeUninitializedCapacity: items.count) { buffer, count in
                    items.withUnsafeBufferPointer { input in
                        let shared = SharedWithScratch(input: input, output: buffer.baseAddress!, makeScratch: makeScratch, transform: transform)
                        DispatchQueue.concurrentPerform(iterations: workers) { worker in
                            let lower = shared.input.count * worker / workers
                            let upper = shared.input.count * (worker + 1) / workers
                            var scratch = shared.makeScratch()
                            for index in lower..<upper { (shared.output + index).initialize(to: shared.transform(shared.input[index], &scratch)) }
                        }
                    }
                    count = items.count
                }
            }
        }
    }

    /// `first` on another thread while `second` runs on this one; both results, once both
    /// are done. `first` must be pure.
    package static func both<A, B>(_ first: @escaping @Sendable () -> A, _ second: () -> B) -> (A, B) {
        let other = Box<A>()
        let done = DispatchGroup()
        done.enter()
        DispatchQueue.global().async {
            other.value = first()
            done.leave()
        }
        let mine = second()
        done.wait()
        return (other.value!, mine)
    }

    /// A result handed from one thread to another: written before the group is left, read
    /// only after waiting on it.
    private final class Box<A>: @unchecked Sendable {
        var value: A?
    }

    private struct SharedWithScratch<T, U, S>: @unchecked Sendable {
        let input: UnsafeBufferPointer<T>
        let output: UnsafeMutablePointer<U>
        let makeScratch: () -> S
        let transform: (T, inout S) -> U
    }

    /// What the workers share; each touches only its own part of `output`.
    private struct Shared<T, U>: @unchecked Sendable {
        let input: UnsafeBufferPointer<T>
        let output: UnsafeMutablePointer<U>
        let transform: (T) -> U
    }
}
