import Testing
@testable import CompassCore

/// The paged list builds only its page's items; it must equal the same slice of the whole
/// list, with the whole filtered list's analytics (a differential test over generated
/// families, every member as viewer, several filters, pages at every boundary).
@Suite struct InteractionPageTests {
    @Test func aPageIsTheSameSliceOfTheWholeList() throws {
        var replayer = Replayer()
        replayer.consume(bytes: HistoryGenerator(families: 3, events: 1500, seed: 9).bytes())
        let state = replayer.state
        let now = Timestamp(rfc3339: "2026-06-01T00:00:00Z")!
        let queries = [InteractionQuery(), InteractionQuery(direction: .inbound), InteractionQuery(search: "a"),
                       InteractionQuery(type: .email, periodDays: 90)]
        var compared = 0
        for member in state.members.values.sorted(by: { $0.userId < $1.userId }) {
            let viewer = try Viewer(member.userId, in: state)
            for query in queries {
                let whole = try InteractionViews.list(state, viewer: viewer, query: query, now: now)
                let count = whole.items.count
                for (offset, limit) in [(0, 0), (0, 1), (0, 25), (1, 25), (count / 2, 10), (max(0, count - 3), 25), (count, 5), (count + 7, 5), (0, count + 1)] {
                    let page = try InteractionViews.page(state, viewer: viewer, query: query, now: now, offset: offset, limit: limit)
                    let start = min(offset, count)
                    #expect(page.items == Array(whole.items[start..<min(count, start + limit)]), "\(member.userId) \(query) \(offset)+\(limit)")
                    #expect(page.analytics == whole.analytics && page.loggedByOptions == whole.loggedByOptions)
                    compared += 1
                }
            }
        }
        #expect(compared > 100)
        #expect(throws: EventError.self) {
            try InteractionViews.page(state, viewer: try Viewer(state.members.keys.sorted()[0], in: state), query: InteractionQuery(), now: now, offset: -1, limit: 5)
        }
    }
}
