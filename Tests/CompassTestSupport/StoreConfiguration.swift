import CompassStore

extension CompassStore.Configuration {
    /// A configuration whose log, snapshot and attachments go through `fs` (a faulty one), with
    /// no snapshots written.
    package static func over(_ fs: any FileSystem) -> CompassStore.Configuration {
        var configuration = CompassStore.Configuration(snapshots: nil)
        configuration.fileSystem = fs
        return configuration
    }
}
