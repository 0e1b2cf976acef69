/// What the state rules ask of a state, answered where its tables lie: the members, and the
/// event's family (looked up once).
///
/// Reading the tables in place keeps the rules from copying them: a copy of a table takes a
/// reference count on each of its arrays and a release, on every line (about 300
/// instructions, a fifteenth of the folding thread's). The places it reads are valid only
/// inside ``CompassState/withRuleTables(family:hash:_:)``, which hands it over.
struct RuleTables {
    private let members: UnsafePointer<IdTable<Member>>
    /// The event's family, when it has events yet.
    private let family: UnsafePointer<Family>?

    /// The role of `user` when they are a member of `familyId`, read once (each read of the
    /// table's value copied the member, a reference count per text).
    @inline(__always) func role(of user: String, hash: Int, in familyId: String) -> MemberRole? {
        IdTable.read(in: members, user, hash: hash) { $0.pointee.family == familyId ? $0.pointee.role : nil } ?? nil
    }

    /// Whether `user` is a member of any family.
    @inline(__always) func isMember(_ user: String, hash: Int) -> Bool {
        IdTable.contains(in: members, user, hash: hash)
    }

    /// Whether the event's family has members.
    @inline(__always) var familyHasMembers: Bool { family.map { !$0.pointee.memberIds.isEmpty } ?? false }

    /// Whether the event's family has the school.
    @inline(__always) func familyHasSchool(_ id: String, hash: Int) -> Bool {
        family.map { IdTable.contains(in: $0.pointer(to: \.schools)!, id, hash: hash) } ?? false
    }

    /// Whether the event's family has the coach.
    @inline(__always) func familyHasCoach(_ id: String, hash: Int) -> Bool {
        family.map { IdTable.contains(in: $0.pointer(to: \.coaches)!, id, hash: hash) } ?? false
    }

    /// Whether the event's family has the coach and, when a school is named, they coach there
    /// (compared where the coach lies: reading the coach out copied it whole).
    @inline(__always) func familyHasCoach(_ id: String, hash: Int, at school: String?) -> Bool {
        guard let family else { return false }
        return IdTable.read(in: family.pointer(to: \.coaches)!, id, hash: hash) { school == nil || $0.pointee.schoolId == school } ?? false
    }

    /// Whether the event's family has logged the interaction (live or deleted).
    @inline(__always) func familyHasInteraction(_ id: String, hash: Int) -> Bool {
        family.map { InteractionTable.contains(in: $0.pointer(to: \.interactions)!, id, hash: hash) } ?? false
    }

    /// Whether the interaction is live in the event's family and `actor` logged it.
    @inline(__always) func interactionIsLive(_ id: String, loggedBy actor: String, hash: Int) -> Bool {
        family.map { InteractionTable.isLive(in: $0.pointer(to: \.interactions)!, id, loggedBy: actor, hash: hash) } ?? false
    }

    /// Whether the event's family has the document.
    @inline(__always) func familyHasDocument(_ id: String) -> Bool {
        family.map { $0.pointee.documents.index(forKey: id) != nil } ?? false
    }

    fileprivate init(members: UnsafePointer<IdTable<Member>>, family: UnsafePointer<Family>?) {
        self.members = members
        self.family = family
    }
}

extension CompassState {
    /// Calls `body` with this state's tables as the rules of an event in `family` read them
    /// (`hash` is the family id's `hashValue`); they must not outlive the call.
    @inline(__always) func withRuleTables<R>(family: String, hash: Int, _ body: (RuleTables) throws(EventError) -> R) throws(EventError) -> R {
        try withUnsafePointer(to: self) { (state) throws(EventError) -> R in
            let table = state.pointer(to: \.families)!
            let position = FamilyTable.position(in: table, of: family, hash: hash)
            // The family list is read where it lies: a copy of it takes a reference count and a
            // release for every line.
            return try table.pointer(to: \.list)!.withElements { (families) throws(EventError) -> R in
                try body(RuleTables(members: state.pointer(to: \.members)!, family: position.map { families.baseAddress! + $0 }))
            }
        }
    }
}
