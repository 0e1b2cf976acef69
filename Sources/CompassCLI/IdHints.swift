import CompassCore
import CompassStore

/// The `hint:` line after a refused append that named an id the viewer's family does not
/// have: the id given and the closest ids of the viewer's own family (never another's).
enum IdHints {
    /// The command that lists each kind of id a hint names.
    static let listCommand = ["school": "schools", "coach": "coaches", "interaction": "interactions"]

    static func hint(for args: ParsedArguments, actor: String, store: CompassStore) -> String? {
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
                return known.isEmpty ? named + " (it has none yet)" : named + "; run 'compass \(listCommand[kind] ?? "")' to list them"
            }
            return named + "; did you mean " + near.joined(separator: ", ") + "?"
        }
        return nil
    }
}
