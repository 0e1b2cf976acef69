/// What is at a path (``FileSystem/kind(of:)``, ``FileSystem/entry(at:)``); `.missing` only on ENOENT.
package enum FileKind: Sendable, Equatable { case missing, regular, directory, link, other }
