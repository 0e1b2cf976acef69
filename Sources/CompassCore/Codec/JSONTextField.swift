/// What a field held, read as text by ``JSONFields/withText(_:_:)``.
package enum JSONTextField<R> {
    /// Missing or `null`.
    case absent
    /// A value of another kind.
    case notText
    /// A string, and what the body made of its bytes.
    case text(R)
}
