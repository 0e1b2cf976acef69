import Foundation

/// A value shared between threads under a lock.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    package init(_ value: Value) { stored = value }
    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    package func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
