import Testing
@testable import CompassCore

/// Reading an array's elements where they lie (``ArrayStorage``, the fold's prefetches) gives
/// exactly what `withUnsafeBufferPointer` gives: the same first element and count, for arrays
/// of every size and alignment the core reads so, empty or not, shared with a copy or not.
@Suite struct ArrayStorageTests {
    /// The two ways agree on `array` (a non-empty one also on its elements' address).
    static func agree<T>(_ array: [T]) -> Bool {
        var array = array
        return withUnsafePointer(to: &array) { pointer in
            let read = ArrayStorage.elements(pointer)
            return pointer.pointee.withUnsafeBufferPointer { buffer in
                read.count == buffer.count && (buffer.isEmpty || read.baseAddress == buffer.baseAddress)
            }
        }
    }

    @Test func theStorageIsReadAsTheArrayReadsIt() {
        #expect(ArrayStorage.layoutHolds)  // else every read goes through `pointee`, slower
        for count in [0, 1, 2, 17, 1_000] {
            #expect(Self.agree([Int](0..<count)))
            #expect(Self.agree([UInt64](repeating: 9, count: count)))
            #expect(Self.agree([UInt8](repeating: 1, count: count)))
            #expect(Self.agree((0..<count).map { "id-\($0)" }))
            #expect(Self.agree((0..<count).map { Family(id: "fam-\($0)") }))
            #expect(Self.agree([SIMD4<Float>](repeating: SIMD4(1, 2, 3, 4), count: count)))  // aligned to 16
        }
        // Shared with a copy, grown past its capacity, emptied keeping its storage, a slice made an array.
        var grown = [Int](0..<5)
        let shared = grown
        grown.append(contentsOf: 5..<100)
        var emptied = [Int](0..<50)
        emptied.removeAll(keepingCapacity: true)
        #expect(Self.agree(shared) && Self.agree(grown) && Self.agree(emptied) && Self.agree(Array(grown[10..<20])))
        #expect(Self.agree([Int]()) && Self.agree([1, 2, 3]))
    }

    /// What the fold's prefetches read through it: a family found by its id's hash, in a table
    /// read where it lies, is the family the table holds under that id.
    @Test func aTableReadInPlaceFindsWhatItHolds() throws {
        try #require(Self.agree([Int](0..<10)))  // (a storage misread would make the probes below run wild)
        var index = PositionIndex()
        for position in 0..<500 { index.insert(hash: position &* 0x9E37_79B9, position: position) }
        withUnsafePointer(to: &index) { pointer in
            for position in 0..<500 {
                #expect(PositionIndex.anyPosition(in: pointer, hash: position &* 0x9E37_79B9) == position)
            }
            #expect(PositionIndex.anyPosition(in: pointer, hash: 7) == nil)
        }
        var empty = PositionIndex()
        #expect(withUnsafePointer(to: &empty) { PositionIndex.anyPosition(in: $0, hash: 0) } == nil)
    }
}
