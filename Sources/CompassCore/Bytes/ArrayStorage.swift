/// An array's elements read where they lie, through a pointer to the array, without the
/// reference count that reading its `pointee` takes.
///
/// A retain and a release are atomic operations, and on x86-64 each also orders the memory
/// accesses around it. The fold's prefetches read four or five arrays a line through pointers
/// (the family list, index slots, the event-id table, a table's entries), so the folding
/// thread, whose time is mostly waiting for memory, ran about fifteen such operations a line
/// between its loads. Reading the arrays' storage directly made the cold replay of the 1M log
/// A/B 0.966, 1/1.039 and 0.984 (three runs of 30 pairs).
///
/// It reads the standard library's native array storage: a heap object whose two header words
/// are followed by the count and the capacity, then the elements. ``layoutHolds`` checks that
/// once against `withUnsafeBufferPointer`; where it does not hold (a standard library that
/// lays arrays out otherwise), the array is read through `pointee` as before.
/// `ArrayStorageTests` holds both ways equal for arrays of every size and alignment read so.
enum ArrayStorage {
    /// Where the count and the first element are in a native array's storage object.
    private static let countOffset = 16, elementsOffset = 32

    /// The elements of the array at `array`, valid while that array is neither changed nor
    /// freed (the caller holds it where it lies).
    @inline(__always) static func elements<T>(_ array: UnsafePointer<[T]>) -> UnsafeBufferPointer<T> {
        guard MemoryLayout<T>.alignment <= 16, layoutHolds else {
            return array.pointee.withUnsafeBufferPointer { $0 }  // the storage outlives the call: the caller's array holds it
        }
        let object = UnsafeRawPointer(array).load(as: UnsafeRawPointer.self)
        let count = object.load(fromByteOffset: countOffset, as: Int.self)
        return UnsafeBufferPointer(start: count == 0 ? nil : (object + elementsOffset).assumingMemoryBound(to: T.self), count: count)
    }

    /// The storage object of the array at `array` (its reference count and count are in its
    /// first cache line), for a prefetch; nil where arrays are not laid out so.
    @inline(__always) static func object<T>(_ array: UnsafePointer<[T]>) -> UnsafeRawPointer? {
        guard layoutHolds else { return nil }
        return UnsafeRawPointer(array).load(as: UnsafeRawPointer.self)
    }

    /// Whether arrays here are laid out as ``elements(_:)`` reads them: checked once, on arrays
    /// of one and several elements of four kinds, each with room to spare.
    static let layoutHolds: Bool = {
        func holds<T>(_ values: [T]) -> Bool {
            var array = values
            array.reserveCapacity(values.count + 5)  // a count below the capacity
            return withUnsafePointer(to: &array) { pointer in
                let object = UnsafeRawPointer(pointer).load(as: UnsafeRawPointer.self)
                return pointer.pointee.withUnsafeBufferPointer { buffer in
                    object.load(fromByteOffset: countOffset, as: Int.self) == buffer.count
                        && UnsafeRawPointer(buffer.baseAddress) == object + elementsOffset
                }
            }
        }
        return holds([7]) && holds([UInt64](repeating: 3, count: 9)) && holds([(1, 2, 3)] as [(Int, Int, Int)])
            && holds(["a", "b"])
    }()
}
