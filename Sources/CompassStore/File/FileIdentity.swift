/// A file's device and inode: the same file whatever name it is reached by.
package struct FileIdentity: Equatable, Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
}
