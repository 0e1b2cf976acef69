import CompassCore
import CompassStore

/// The `hint:` line after a refused append that named an id the viewer's family does not
/// have: the id given and the closest ids of the viewer's own family (never another's).
enum IdHints {
    static func hint(for args: ParsedArguments, actor: String, store: CompassStore) -> String? {
        if let given = args.value("occurred-at"), Timestamp(rfc3339: given) == nil, given.utf8.count != 10 {
            return "'\(TerminalText.escape(given))' for '--occurred-at' is not a time between years 0000 and 9999 (e.g. 2026-02-03T14:15:00Z, 2026-02-03T09:15:00-05:00 or 2026-02-03)"
        }
        guard let state = try? store.state(), let family = state.family(of: actor) else { return nil }
        var given: [(kind: String, id: String, known: [String])] = []
        if let school = args.value("school") { given.append(("school", school, Array(family.schools.keys))) }
        if let coach = args.value("coach") { given.append(("coach", coach, Array(family.coaches.keys))) }
        var exists: (String, String) -> Bool = { kind, id in kind == "school" ? family.schools[id] != nil : family.coaches[id] != nil }
        if args.command == "delete-interaction", let id = args.positionals.first, let viewer = try? Viewer(actor, in: state) {
            // Suggest only what the viewer can see; say nothing of an id that exists (another's, or deleted).
            var visible: [String] = []
            family.forEachVisibleInteraction(to: viewer) { visible.append($0.logged.interactionId) }
            given.append(("interaction", id, visible))
            let schoolsAndCoaches = exists
            exists = { kind, id in kind == "interaction" ? family.interactions[id] != nil : schoolsAndCoaches(kind, id) }
        }
        for (kind, id, known) in given where !exists(kind, id) {
            let near = Suggestions.closest(to: id, in: known)
            let named = "no \(kind) '\(TerminalText.escape(id))' in your family"
            if near.isEmpty {
                return known.isEmpty ? named + " (it has none yet)" : named + "; run 'compass \(kind == "interaction" ? "interactions" : kind + "s")' to list them"
            }
            return named + "; did you mean " + near.joined(separator: ", ") + "?"
        }
        return nil
    }
}
