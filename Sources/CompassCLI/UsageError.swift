/// An error in the words typed: exit status 2.
struct UsageError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
