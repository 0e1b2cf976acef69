import CompassCore
import Foundation

/// A file to attach to a logged interaction, or a document's file.
public enum AttachmentFile: Sendable, Hashable {
    /// A file on disk (read by the store; only a regular file).
    case path(String)
    /// Bytes in memory under their original file name.
    case bytes(name: String, [UInt8])

    func staged(fs: FileSystem) throws(StoreError) -> StagedAttachment {
        switch self {
        case .path(let path): try AttachmentStore.stage(path, fs: fs)
        case .bytes(let name, let bytes): try AttachmentStore.stage(name: name, bytes: bytes)
        }
    }

    /// The file as a document's bytes: any type, up to ``AttachmentStore/maxDocumentBytes``.
    func stagedAsDocument(fs: FileSystem) throws(StoreError) -> StagedAttachment {
        switch self {
        case .path(let path): try AttachmentStore.stageDocument(path, fs: fs)
        case .bytes(let name, let bytes): try AttachmentStore.stageDocument(name: name, bytes: bytes)
        }
    }
}
