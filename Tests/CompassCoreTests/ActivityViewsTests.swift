import Foundation
import Testing
@testable import CompassCore

/// SPEC §3.3, named after seed 002 §9.
@Suite struct ActivityTimelineTests {
    static let now = Timestamp(rfc3339: "2026-03-01T12:00:00Z")!
    static let utc = TimeZone(identifier: "UTC")!

    static func fixture() -> Fixture {
        var f = InteractionListTests.fixture()
        f.must("SchoolStatusChanged", "u-pat", #"{"schoolId":"s-ucla","newStatus":"offer_received","notes":"Full ride — decide by Feb 1, 2026, after talking it over with the whole family"}"#)
        f.must("SchoolStatusChanged", "u-leo", #"{"schoolId":"s-asu","newStatus":"not_interested"}"#)
        f.must("DocumentUploaded", "u-maya", #"{"documentId":"d-1","title":"Junior transcript","docType":"test_scores"}"#)
        f.must("DocumentUploaded", "u-leo", #"{"documentId":"d-2","title":"Highlight reel","docType":"highlight_reel"}"#)
        return f
    }

    static func page(_ f: Fixture, _ viewer: String, _ query: ActivityQuery = ActivityQuery(pageSize: 100)) throws -> ActivityPage {
        ActivityViews.page(f.state, viewer: try Viewer(viewer, in: f.state), query: query, now: now, zone: utc)
    }

    @Test func threeSourcesAreMergedAndSortedNewestFirst() throws {
        let page = try Self.page(Self.fixture(), "u-pat")
        #expect(page.totalCount == 10)
        #expect(Set(page.items.map(\.type)) == Set(ActivityType.allCases))
        #expect(zip(page.items, page.items.dropFirst()).allSatisfy { a, b in
            a.timestamp > b.timestamp || (a.timestamp == b.timestamp && a.id < b.id)
        })
        // i-1 and i-2 share a timestamp: ids break the tie.
        let ids = page.items.map(\.id)
        #expect(ids.firstIndex(of: "interaction-i-1")! < ids.firstIndex(of: "interaction-i-2")!)
    }

    @Test func itemsAreHydratedWithTitlesIconsAndTargets() throws {
        let items = try Self.page(Self.fixture(), "u-pat").items
        let byId = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        let call = try #require(byId["interaction-i-2"])
        #expect(call.title == "Phone Call with Arizona State")
        #expect(call.icon == "☎️")
        #expect(call.description == "[Coach Interest Level: HIGH]")
        #expect(call.clickUrl == "/interactions/i-2" && call.isClickable)
        #expect(call.entityType == "school" && call.entityId == "s-asu" && call.entityName == "Arizona State")
        let noSchool = try #require(byId["interaction-i-3"])
        #expect(noSchool.title == "Direct Message with Unknown School")
        #expect(noSchool.entityId == nil && noSchool.entityName == "Unknown School")
        #expect(byId["interaction-i-4"]?.description == "Thanks")  // subject when there is no content
        let status = try #require(items.first { $0.type == .schoolStatusChange && $0.entityId == "s-ucla" })
        #expect(status.title == "UCLA → Offer received")
        #expect(status.icon == "📍" && status.clickUrl == "/schools/s-ucla")
        #expect(status.id.hasPrefix("status-e-"))
        let doc = try #require(byId["doc-d-1"])
        #expect(doc.description == "Test scores uploaded")
        #expect(doc.icon == "📄" && !doc.isClickable && doc.clickUrl == nil)
        #expect(doc.entityType == "document" && doc.entityId == "d-1" && doc.entityName == "Junior transcript")
    }

    @Test(arguments: [
        (InteractionType.email, "📧"), (.phoneCall, "☎️"), (.text, "💬"), (.inPersonVisit, "🤝"), (.virtualMeeting, "💻"),
        (.camp, "⛺"), (.showcase, "🎬"), (.tweet, "🐦"), (.dm, "📱"),
    ])
    func iconsByInteractionType(type: InteractionType, icon: String) {
        #expect(type.icon == icon)
    }

    @Test func longDescriptionsAreCutToFiftyCharactersAndAnEllipsis() throws {
        let items = try Self.page(Self.fixture(), "u-pat").items
        let status = try #require(items.first { $0.type == .schoolStatusChange && $0.entityId == "s-ucla" })
        #expect(status.description == "Full ride — decide by Feb 1, 2026, after talking i…")
        #expect(status.description.count == 51)
        #expect(ActivityViews.cut(String(repeating: "🔥", count: 50)) == String(repeating: "🔥", count: 50))
        #expect(ActivityViews.cut("e\u{301}" + String(repeating: "x", count: 50)).count == 51)  // a combining mark is one Character
        #expect(ActivityViews.cut(String(repeating: "a\n", count: 30)).hasSuffix("\n…"))
    }

    @Test func athleteSeesOnlyWhatTheyDid() throws {
        let page = try Self.page(Self.fixture(), "u-leo")
        #expect(Set(page.items.map(\.id)).isSuperset(of: ["interaction-i-5", "interaction-i-6", "doc-d-2"]))
        #expect(page.items.count == 4)  // + Leo's own status change
        #expect(!page.items.contains { $0.id == "doc-d-1" || $0.title == "UCLA → Offer received" })
    }

    @Test(arguments: [
        (ActivityQuery(type: .documentUpload, pageSize: 100), ["doc-d-1", "doc-d-2"]),
        (ActivityQuery(range: .week, search: "camp", pageSize: 100), ["interaction-i-1", "interaction-i-5"]),
        (ActivityQuery(range: .week, search: "camp day", pageSize: 100), ["interaction-i-5"]),  // subject stands in for absent content
        (ActivityQuery(search: "camp invite", pageSize: 100), []),  // i-1's subject is not shown: it has content
        (ActivityQuery(search: "UPLOADED", pageSize: 100), ["doc-d-1", "doc-d-2"]),
        (ActivityQuery(search: "…", pageSize: 100), ["status-e-17"]),       // matched as output, ellipsis included
        (ActivityQuery(type: .interaction, range: .month, search: "ucla", pageSize: 100), ["interaction-i-1", "interaction-i-4", "interaction-i-5"]),
    ])
    func filtersCombineWithAnd(query: ActivityQuery, expected: [String]) throws {
        let ids = try Self.page(Self.fixture(), "u-pat", query).items.map(\.id)
        #expect(Set(ids) == Set(expected))
    }

    @Test func rangesCountBackFromNow() throws {
        let f = Self.fixture()
        let all = try Self.page(f, "u-pat").items
        for (range, days) in [(ActivityRange.week, 7), (.month, 30), (.quarter, 90)] {
            let since = Self.now.adding(seconds: -Int64(days) * 86_400)
            let page = try Self.page(f, "u-pat", ActivityQuery(range: range, pageSize: 100))
            #expect(page.items == all.filter { $0.timestamp >= since })
        }
    }

    @Test func pagesConcatenateToTheUnpagedList() throws {
        let f = Self.fixture()
        let all = try Self.page(f, "u-pat").items
        for size in 1...11 {
            var joined: [ActivityItem] = []
            let first = try Self.page(f, "u-pat", ActivityQuery(page: 1, pageSize: size))
            #expect(first.totalPages == max(1, (all.count + size - 1) / size))
            for page in 1...first.totalPages {
                let items = try Self.page(f, "u-pat", ActivityQuery(page: page, pageSize: size)).items
                #expect(items.count <= size)
                joined += items
            }
            #expect(joined == all)
            #expect(try Self.page(f, "u-pat", ActivityQuery(page: first.totalPages + 1, pageSize: size)).items.isEmpty)
        }
    }

    @Test func emptyTimelineHasOnePage() throws {
        var f = Fixture()
        f.must("MemberJoined", "u-new", #"{"userId":"u-new","fullName":"New","role":"player"}"#)
        let page = try Self.page(f, "u-new")
        #expect(page.totalPages == 1 && page.totalCount == 0 && page.items.isEmpty)
    }

    static let boundaries: [(Int64, String)] = [
        (0, "just now"), (59, "just now"), (-3600, "just now"), (60, "1m ago"), (3599, "59m ago"),
        (3600, "1h ago"), (86_399, "23h ago"), (86_400, "1d ago"), (604_799, "6d ago"), (604_800, "Feb 22"),
    ]

    @Test(arguments: boundaries)
    func relativeTimeBoundaries(secondsAgo: Int64, expected: String) {
        #expect(ActivityViews.relativeTime(Self.now.adding(seconds: -secondsAgo), now: Self.now, zone: Self.utc) == expected)
    }

    @Test func olderDatesUseTheViewersZone() {
        let time = Timestamp(rfc3339: "2026-01-16T03:00:00Z")!
        #expect(ActivityViews.relativeTime(time, now: Self.now, zone: Self.utc) == "Jan 16")
        #expect(ActivityViews.relativeTime(time, now: Self.now, zone: TimeZone(identifier: "America/Chicago")!) == "Jan 15")
    }

    @Test func jsonHasEveryKeyInOrder() throws {
        let page = try Self.page(Self.fixture(), "u-maya", ActivityQuery(type: .documentUpload))
        #expect(String(decoding: ActivityJSON.page(page), as: UTF8.self) == #"{"page":1,"pageSize":20,"totalPages":1,"totalCount":1,"items":[{"id":"doc-d-1","type":"document_upload","timestamp":"2026-02-01T12:19:00.000Z","title":"Junior transcript","description":"Test scores uploaded","icon":"📄","entityType":"document","entityId":"d-1","entityName":"Junior transcript","relativeTime":"Feb 1","isClickable":false,"clickUrl":null}]}"# + "\n")
    }
}
