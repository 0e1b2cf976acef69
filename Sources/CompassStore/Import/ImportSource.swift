import CompassCore

/// The lines of a file being imported, handed to the store a block at a time so an import
/// holds one block's drafts and lines, never the whole file's (`compass import`).
///
/// The store asks for a block, has the source fill what its lines leave out against the state
/// the blocks before it built, loads the families they name, has the source stage the bytes
/// they attach, decides them with the one rule set and writes them, then asks for the next.
package protocol ImportSource {
    /// The next block of the input's lines, decoded (nil after the last).
    mutating func nextBlock() throws(StoreError) -> ImportBlock?
    /// Fills what the block's lines leave out (their family) from `state`; a line that
    /// cannot be filled is refused (``ImportBlock/refuse(_:_:)``).
    mutating func fill(_ block: inout ImportBlock, state: CompassState) throws(StoreError)
    /// The bytes the block's lines attach, once their families are in `state`; a line naming
    /// bytes it may not have is refused.
    mutating func stage(_ block: inout ImportBlock, state: CompassState) throws(StoreError) -> [StagedAttachment]
}
