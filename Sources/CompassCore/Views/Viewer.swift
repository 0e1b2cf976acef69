/// Who is looking: a member of one family, with their role.
public struct Viewer: Hashable, Sendable, Codable {
    /// The user id.
    public var userId: String
    /// The role.
    public var role: MemberRole
    /// The name shown to people.
    public var name: String
    /// The family id: the access boundary.
    public var family: String

    /// The member `userId`, or `Unknown user USER` when they are not a member.
    public init(_ userId: String, in state: CompassState) throws(EventError) {
        guard let member = state.members[userId] else { throw EventError("Unknown user \(userId)", kind: .notFound) }
        self.userId = userId
        role = member.role
        name = member.fullName
        family = member.family
    }

    /// Someone who sees all of `family` and is none of its members: what the SQL projection
    /// reads the family's items as (each member's share is then the database's to filter).
    package init(seeingAllOf family: String) {
        userId = ""
        role = .parent
        name = ""
        self.family = family
    }

    /// Whether the viewer may see something done by `actor`: a player sees only their own
    /// actions, a parent the whole family.
    public func sees(actor: String) -> Bool { role == .parent || actor == userId }
}

extension Family {
    /// Calls `body` with each live interaction the viewer may see (SPEC §3: players see what
    /// they logged), in logging order; records the viewer may not see are never built.
    public func forEachVisibleInteraction(to viewer: Viewer, _ body: (InteractionRecord) -> Void) {
        forEachVisibleInteraction(to: viewer, where: { _, _ in true }, body)
    }

    /// ``forEachVisibleInteraction(to:_:)`` that also skips what `include` refuses, building
    /// only the records it keeps (`include` sees the row's facts and who logged it).
    func forEachVisibleInteraction(to viewer: Viewer, where include: (InteractionTable.RowFacts, (String) -> Bool) -> Bool,
                                   _ body: (InteractionRecord) -> Void) {
        guard viewer.family == id else { return }
        interactions.forEachRecord(where: { facts, loggedBy in
            Self.isVisible(facts, loggedBy, to: viewer) && withoutActuallyEscaping(loggedBy) { include(facts, $0) }
        }, body)
    }

    /// The facts of each interaction the viewer may see and `include` keeps, no record built.
    func forEachVisibleFacts(to viewer: Viewer, where include: (InteractionTable.RowFacts, (String) -> Bool) -> Bool,
                             _ body: (InteractionTable.RowFacts) -> Void) {
        guard viewer.family == id else { return }
        interactions.forEachFacts(where: { facts, loggedBy in
            Self.isVisible(facts, loggedBy, to: viewer) && withoutActuallyEscaping(loggedBy) { include(facts, $0) }
        }, body)
    }

    /// Whether a row of the viewer's family is theirs to see: live, and logged by them unless
    /// they are a parent.
    private static func isVisible(_ facts: InteractionTable.RowFacts, _ loggedBy: (String) -> Bool, to viewer: Viewer) -> Bool {
        !facts.deleted && (viewer.role == .parent || loggedBy(viewer.userId))
    }

    /// A school's name: nil when no id is given, `Unknown School` when it does not resolve.
    public func schoolName(_ schoolId: String?) -> String? {
        guard let schoolId else { return nil }
        return schools[schoolId]?.name ?? "Unknown School"
    }

    /// A coach's `First Last`: nil when no id is given, `Unknown Coach` when it does not resolve.
    public func coachName(_ coachId: String?) -> String? {
        guard let coachId else { return nil }
        return coaches[coachId]?.fullName ?? "Unknown Coach"
    }

    /// A member's full name, if they are in this family.
    public func memberName(_ userId: String, in state: CompassState) -> String? {
        guard let member = state.members[userId], member.family == id else { return nil }
        return member.fullName
    }
}

/// Text comparisons the SPEC names exactly.
package enum TextMatch {
    /// `field.lowercased()` contains `query.lowercased()`; an empty query matches everything.
    package static func contains(_ field: String?, _ loweredQuery: String) -> Bool {
        guard let field else { return false }
        return field.lowercased().contains(loweredQuery)
    }

    /// Orders strings by their Unicode code points.
    package static func codePointsPrecede(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value }
    }
}
