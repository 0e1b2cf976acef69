/// How one table's rows of a family change: the keys whose rows are removed (a changed row's
/// key too) and the rows added (a changed row's new one too).
public struct RowChanges: Equatable, Sendable {
    public var removedKeys: [String] = []
    public var added: [[ProjectionValue]] = []

    public var isEmpty: Bool { removedKeys.isEmpty && added.isEmpty }

    public init() {}
}
