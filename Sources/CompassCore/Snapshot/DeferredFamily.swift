/// What a snapshot says of one family.
package enum DeferredFamily: Sendable {
    /// The snapshot has no such family (its first event is still to come).
    case absent
    case loaded(Family)
    /// The family's section cannot be read or does not check: the snapshot cannot be used.
    case unreadable
}
