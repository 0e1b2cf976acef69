extension UnsafePointer {
    /// Calls `body` with the elements of the array this points to, read where they lie.
    ///
    /// The fold's rules and prefetches hold the state's tables by pointer (a copy of a table
    /// costs a reference count per array it holds, on every line). This reads one of those
    /// arrays through the standard library's own `withUnsafeBufferPointer`, so the elements'
    /// address never outlives the call.
    @inline(__always) func withElements<Element, Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<Element>) throws(Failure) -> Result
    ) throws(Failure) -> Result where Pointee == [Element] {
        try pointee.withUnsafeBufferPointer(body)
    }
}
