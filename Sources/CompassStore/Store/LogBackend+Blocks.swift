extension LogBackend {
    /// All the lines in one block: a file store's export is a copy of its file anyway.
    func eachBlockOfLines(_ body: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) {
        try body(try allLines())
    }
}
