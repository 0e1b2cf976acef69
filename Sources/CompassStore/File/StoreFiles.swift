/// The files a store keeps beside its log, named in one place.
///
/// | path | holds |
/// |---|---|
/// | `LOG.snapshot` | a cache of the replayed state |
/// | `LOG.journal` | only while a batch is written: the committed size |
/// | `LOG.erasing` | only while an erasure finishes: what it still removes |
/// | `LOG.torn` | torn last lines moved out of the log |
/// | `LOG.attachments/` | attachment and document bytes, by SHA-256 |
/// | `LOG.sync` | a device's store: its tag, its family and the remote `seq` it last synced to |
/// | `NAME.tmp-PID` | a file being written atomically, beside the file it becomes |
package struct StoreFiles: Sendable {
    /// The log's path.
    package let log: String

    package init(log: String) { self.log = log }

    package var snapshot: String { log + ".snapshot" }
    package var journal: String { log + ".journal" }
    package var erasing: String { log + ".erasing" }
    package var torn: String { log + ".torn" }
    package var attachments: String { log + ".attachments" }
    package var sync: String { log + ".sync" }
    /// The folder the log is in.
    package var folder: String { POSIX.directory(of: log) }

    /// The temporary name this process writes `path` under before renaming it into place.
    package static func temporary(for path: String) -> String { path + ".tmp-\(getpid())" }
}
