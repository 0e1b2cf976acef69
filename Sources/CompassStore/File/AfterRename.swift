/// What ``FileSystem/replaceAtomically(_:afterRename:write:)`` does with the folder once the
/// new file is renamed into place.
package enum AfterRename: Sendable {
    /// Fsync the folder; a failure is an error (the file must be durable before going on).
    case syncFolder
    /// Fsync the folder, tried again; a lasting failure is a warning (the file is in place).
    case warnIfFolderSyncFails
    /// The rename is a commit point the caller finishes itself.
    case leaveFolderToCaller
}
