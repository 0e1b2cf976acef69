/// What ``FileSystem/lock(_:_:path:)`` does with a file's `flock`: take it shared or
/// exclusive (waiting), let it go, or take it shared only when no writer holds it.
package enum LockKind: Sendable { case shared, exclusive, unlock, sharedIfFree }
