import CompassCore
import Dispatch
import Foundation

/// What a thread that prepares lines keeps from one line to the next: its tape, and the ids it
/// built lately.
struct PreparingScratch {
    var tape = JSONTape()
    var ids: IdInterner

    init(idSlots: Int) { ids = IdInterner(slotCount: idSlots) }
}

/// The scratches of the two threads that prepare a block: the worker's and the folding
/// thread's. The two blocks share them, as only one block is prepared at a time (a block
/// starts after the one before it finished preparing): each thread then looks its ids up in
/// one interner, not one a block (half the memory, twice as likely in the cache).
final class PreparingScratches: @unchecked Sendable {
    var worker: PreparingScratch
    var folder: PreparingScratch
    /// Whether a block is being prepared with them (set and read by the folding thread only).
    var inUse = false

    init(idSlots: Int) {
        worker = PreparingScratch(idSlots: idSlots)
        folder = PreparingScratch(idSlots: idSlots)
    }
}
