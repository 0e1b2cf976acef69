/// How ``FileSystem/open(_:_:)`` opens a file.
///
/// The log is opened as the user named it (a symbolic link to it is followed). Every file the
/// store makes beside it (journal, torn fragments, temporaries, snapshot, blobs) is a side
/// file: never opened through a symbolic link, and created only where nothing is.
package enum OpenMode: Sendable {
    /// The log, read only.
    case read
    /// A side file, read only; a symbolic link is an error.
    case readSide
    /// The log, read and append (`O_APPEND`), an existing file only.
    case append
    /// The log on its first append: read and append, created where nothing is (`O_EXCL`).
    case createLog
    /// A side file appended to (`LOG.torn`), created when missing; never through a link.
    case appendSide
    /// A new side file for writing (a temporary): `O_EXCL`, so nothing that is there is
    /// ever truncated or written through.
    case createNew
}
