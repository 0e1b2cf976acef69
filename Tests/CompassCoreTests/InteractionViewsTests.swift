import Foundation
import Testing
@testable import CompassCore

/// SPEC §3.1–3.2, named after the checklists of seed 000 §9 and seed 001 §9.
@Suite struct InteractionListTests {
    static let now = Timestamp(rfc3339: "2026-03-01T12:00:00Z")!

    /// Maya logs four interactions, Leo two; another family logs one with the same ids.
    static func fixture() -> Fixture {
        var f = Fixture.family()
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","coachId":"c-ucla","type":"email","direction":"outbound","occurredAt":"2026-02-27T10:00:00Z","subject":"Camp invite","content":"Asked about the June camp","sentiment":"positive"}"#)
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-2","schoolId":"s-asu","type":"phone_call","direction":"inbound","occurredAt":"2026-02-27T10:00:00Z","sentiment":"very_positive","interestAnswers":[true,true,true,true,false,false]}"#)
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-3","coachId":"c-asu","type":"dm","direction":"inbound","occurredAt":"2026-01-15T10:00:00Z","subject":"Film 🔥","content":"Loved the highlight reel"}"#)
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-4","schoolId":"s-ucla","type":"text","direction":"outbound","subject":"Thanks"}"#)
        f.must("InteractionLogged", "u-leo", #"{"interactionId":"i-5","schoolId":"s-ucla","otherCoachName":"Al Vee","type":"camp","direction":"inbound","occurredAt":"2026-02-25T09:00:00Z","subject":"Camp day","sentiment":"negative"}"#)
        f.must("InteractionLogged", "u-leo", #"{"interactionId":"i-6","schoolId":"s-asu","type":"email","direction":"outbound","occurredAt":"2025-11-01T09:00:00Z","subject":"Intro"}"#)
        f.must("MemberJoined", "u-zed", #"{"userId":"u-zed","fullName":"Zed Other","role":"player"}"#, family: "other")
        f.must("SchoolAdded", "u-zed", #"{"schoolId":"s-ucla","name":"UCLA (other family)"}"#, family: "other")
        f.must("InteractionLogged", "u-zed", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"outbound","subject":"Secret of another family"}"#, family: "other")
        return f
    }

    static func list(_ f: Fixture, _ viewer: String, _ query: InteractionQuery = InteractionQuery()) throws -> InteractionList {
        try InteractionViews.list(f.state, viewer: Viewer(viewer, in: f.state), query: query, now: now)
    }

    @Test func athleteSeesOnlyOwnInteractions() throws {
        let list = try Self.list(Self.fixture(), "u-maya")
        #expect(Set(list.items.map(\.id)) == ["i-1", "i-2", "i-3", "i-4"])
        #expect(list.items.allSatisfy { $0.loggedByName == "You" && $0.canDelete })
        #expect(list.privacyNotice)
        #expect(list.loggedByOptions == nil)
    }

    @Test func parentSeesTheWholeFamilyAndCannotDelete() throws {
        let list = try Self.list(Self.fixture(), "u-pat")
        #expect(Set(list.items.map(\.id)) == ["i-1", "i-2", "i-3", "i-4", "i-5", "i-6"])
        #expect(!list.privacyNotice)
        #expect(list.items.allSatisfy { !$0.canDelete })
        #expect(list.items.first { $0.id == "i-5" }?.loggedByName == "Leo Lopez")
    }

    @Test func nobodySeesAnotherFamily() throws {
        let f = Self.fixture()
        let zed = try Self.list(f, "u-zed")
        #expect(zed.items.map(\.subject) == ["Secret of another family"])
        #expect(zed.items[0].schoolName == "UCLA (other family)")
        for viewer in ["u-pat", "u-maya", "u-leo"] {
            let json = String(decoding: InteractionJSON.list(try Self.list(f, viewer)), as: UTF8.self)
            #expect(!json.contains("Secret") && !json.contains("other family") && !json.contains("u-zed"))
        }
    }

    @Test func newestFirstWithSameTimestampTiesByIdAndCreatedAtStandingIn() throws {
        let list = try Self.list(Self.fixture(), "u-pat")
        // i-4 has no occurredAt: its `at` (Feb 1 fixture clock) stands in.
        #expect(list.items.map(\.id) == ["i-1", "i-2", "i-5", "i-4", "i-3", "i-6"])
        #expect(list.items.first { $0.id == "i-4" }?.occurredAt == list.items.first { $0.id == "i-4" }?.createdAt)
    }

    @Test func itemFieldsResolveNamesAndFallbacks() throws {
        let items = try Self.list(Self.fixture(), "u-pat").items
        let byId = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        #expect(byId["i-1"]?.coachName == "Jane Doe")
        #expect(byId["i-1"]?.schoolName == "UCLA")
        #expect(byId["i-2"]?.displaySubject == "Phone Call")
        #expect(byId["i-2"]?.subject == nil)
        #expect(byId["i-2"]?.content == "[Coach Interest Level: HIGH]")
        #expect(byId["i-2"]?.interestLevel == .high)
        // A school is never inferred from a coach.
        #expect(byId["i-3"]?.schoolId == nil && byId["i-3"]?.schoolName == nil && byId["i-3"]?.coachName == "Sam Reed")
        #expect(byId["i-5"]?.coachName == nil && byId["i-5"]?.otherCoachName == "Al Vee")
        #expect(byId["i-3"]?.type.displayName == "Direct Message")
    }

    @Test(arguments: [
        (InteractionQuery(type: .email), ["i-1", "i-6"]),
        (InteractionQuery(direction: .inbound), ["i-2", "i-5", "i-3"]),
        (InteractionQuery(sentiment: .negative), ["i-5"]),
        (InteractionQuery(periodDays: 7), ["i-1", "i-2", "i-5"]),
        (InteractionQuery(periodDays: 90), ["i-1", "i-2", "i-5", "i-4", "i-3"]),
        (InteractionQuery(search: "CAMP"), ["i-1", "i-5"]),
        (InteractionQuery(search: "🔥"), ["i-3"]),
        (InteractionQuery(search: "interest level: high"), ["i-2"]),   // the shown content's note
        (InteractionQuery(search: "phone call"), []),                   // not the displaySubject fallback
        (InteractionQuery(search: ""), ["i-1", "i-2", "i-5", "i-4", "i-3", "i-6"]),
        (InteractionQuery(loggedBy: "u-leo"), ["i-5", "i-6"]),
        (InteractionQuery(loggedBy: "me"), []),
        (InteractionQuery(loggedBy: "u-nobody"), []),
        (InteractionQuery(type: .email, direction: .outbound, periodDays: 30), ["i-1"]),
        (InteractionQuery(search: "camp", direction: .inbound, loggedBy: "u-leo"), ["i-5"]),
    ])
    func filtersCombineWithAnd(query: InteractionQuery, expected: [String]) throws {
        #expect(try Self.list(Self.fixture(), "u-pat", query).items.map(\.id) == expected)
    }

    @Test func analyticsFollowTheFilters() throws {
        let f = Self.fixture()
        #expect(try Self.list(f, "u-pat").analytics == InteractionAnalytics(total: 6, outbound: 3, inbound: 3, thisWeek: 3))
        #expect(try Self.list(f, "u-pat", InteractionQuery(direction: .inbound)).analytics
                == InteractionAnalytics(total: 3, outbound: 0, inbound: 3, thisWeek: 2))
        #expect(try Self.list(f, "u-maya").analytics == InteractionAnalytics(total: 4, outbound: 2, inbound: 2, thisWeek: 2))
    }

    @Test func periodBoundaryIsInclusive() throws {
        var f = Fixture.family()
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"outbound","occurredAt":"2026-02-22T12:00:00Z"}"#)
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-2","schoolId":"s-ucla","type":"email","direction":"outbound","occurredAt":"2026-02-22T11:59:59.999Z"}"#)
        let list = try Self.list(f, "u-maya", InteractionQuery(periodDays: 7))
        #expect(list.items.map(\.id) == ["i-1"])
        #expect(list.analytics.thisWeek == 1)
    }

    @Test func loggedByIsForParentsOnly() {
        // A forbidden error, matched by kind (the CLI words it as `--logged-by …`).
        #expect {
            try Self.list(Self.fixture(), "u-maya", InteractionQuery(loggedBy: "me"))
        } throws: { ($0 as? EventError)?.kind == .forbidden }
    }

    @Test func loggedByOptionsListMeThenAthletesByNameCodePoints() throws {
        var f = Self.fixture()
        f.must("MemberJoined", "u-pat", #"{"userId":"u-ana","fullName":"Ángel Lopez","role":"player"}"#)
        f.must("MemberJoined", "u-pat", #"{"userId":"u-leo2","fullName":"Leo Lopez","role":"player"}"#)
        f.must("MemberJoined", "u-pat", #"{"userId":"u-kim","fullName":"Kim Lopez","role":"parent"}"#)
        let options = try Self.list(f, "u-kim").loggedByOptions
        #expect(options == [
            LoggedByOption(userId: "u-kim", label: "Me"),
            LoggedByOption(userId: "u-leo", label: "Leo Lopez"),
            LoggedByOption(userId: "u-leo2", label: "Leo Lopez"),
            LoggedByOption(userId: "u-maya", label: "Maya Lopez"),
            LoggedByOption(userId: "u-ana", label: "Ángel Lopez"),  // "Á" (U+00C1) sorts after ASCII
        ])
    }

    @Test func unknownViewerIsAnError() {
        #expect(throws: EventError("Unknown user u-ghost", kind: .notFound)) { try Viewer("u-ghost", in: Self.fixture().state) }
    }

    @Test func deletedInteractionsDisappearFromListAndAnalytics() throws {
        var f = Self.fixture()
        f.must("InteractionDeleted", "u-maya", #"{"interactionId":"i-1"}"#)
        let list = try Self.list(f, "u-pat")
        #expect(!list.items.contains { $0.id == "i-1" })
        #expect(list.analytics.total == 5)
    }

    @Test func jsonIsByteIdenticalAndHasEveryKeyInOrder() throws {
        let f = Self.fixture()
        let a = InteractionJSON.list(try Self.list(f, "u-maya", InteractionQuery(type: .dm)))
        let b = InteractionJSON.list(try Self.list(Self.fixture(), "u-maya", InteractionQuery(type: .dm)))
        #expect(a == b)
        // The JSON writes each field directly; the CSV uses itemKeys/itemValues: the two agree.
        for item in try Self.list(f, "u-pat").items {
            var w = JSONWriter()
            w.beginObject()
            InteractionJSON.writeItemFields(item, into: &w)
            w.endObject()
            guard case .object(let object)? = JSONParser.parse(w.bytes) else { Issue.record("item JSON does not parse"); continue }
            #expect(object.members.map(\.key) == InteractionJSON.itemKeys)
            #expect(object.members.map(\.value) == InteractionJSON.itemValues(item))
        }
        #expect(String(decoding: a, as: UTF8.self) == #"{"viewer":{"userId":"u-maya","role":"player","name":"Maya Lopez"},"privacyNotice":true,"loggedByOptions":null,"analytics":{"total":1,"outbound":0,"inbound":1,"thisWeek":0},"count":1,"items":[{"id":"i-3","type":"dm","typeName":"Direct Message","direction":"inbound","subject":"Film 🔥","displaySubject":"Film 🔥","content":"Loved the highlight reel","sentiment":null,"interestLevel":null,"occurredAt":"2026-01-15T10:00:00.000Z","createdAt":"2026-02-01T12:10:00.000Z","loggedBy":"u-maya","loggedByName":"You","schoolId":null,"schoolName":null,"coachId":"c-asu","coachName":"Sam Reed","otherCoachName":null,"attachmentCount":0,"canDelete":true}]}"# + "\n")
    }
}

@Suite struct InteractionDetailTests {
    static func detail(_ f: Fixture, _ viewer: String, _ id: String) throws -> InteractionDetail {
        try InteractionViews.detail(f.state, viewer: Viewer(viewer, in: f.state), interactionId: id)
    }

    @Test func athleteDetailCanExportParentDetailIsReadOnly() throws {
        var f = InteractionListTests.fixture()
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-9","schoolId":"s-ucla","eventId":"ev-camp","type":"camp","direction":"inbound","attachments":[{"name":"a.pdf","sizeBytes":5,"mimeType":"application/pdf","sha256":"\#(SHA256.emptyHex)"}]}"#)
        let mine = try Self.detail(f, "u-maya", "i-9")
        #expect(mine.canExport && mine.item.canDelete)
        #expect(mine.eventId == "ev-camp")
        #expect(mine.attachments == [Attachment(name: "a.pdf", sizeBytes: 5, mimeType: "application/pdf", sha256: SHA256.emptyHex)])
        #expect(mine.item.attachmentCount == 1)
        let parent = try Self.detail(f, "u-pat", "i-9")
        #expect(!parent.canExport && !parent.item.canDelete)
        #expect(parent.item.loggedByName == "Maya Lopez")
    }

    @Test(arguments: [("u-leo", "i-1"), ("u-maya", "i-404"), ("u-zed", "i-2"), ("u-pat", "i-deleted")])
    func invisibleDeletedOrForeignIsNotFound(viewer: String, id: String) {
        var f = InteractionListTests.fixture()
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-deleted","schoolId":"s-ucla","type":"email","direction":"inbound"}"#)
        f.must("InteractionDeleted", "u-maya", #"{"interactionId":"i-deleted"}"#)
        #expect(throws: EventError("Interaction not found", kind: .notFound)) { try Self.detail(f, viewer, id) }
    }

    @Test func csvExportQuotesEveryFieldAndFormatsTheDateInTheZone() throws {
        var f = Fixture.family()
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-1","coachId":"c-ucla","type":"in_person_visit","direction":"inbound","occurredAt":"2026-02-03T22:15:00Z","subject":"Visit, \"official\" 🏈","content":"Line one\nLine, two","sentiment":"positive","interestAnswers":[true,false,true,false,false,false]}"#)
        let detail = try Self.detail(f, "u-maya", "i-1")
        let csv = InteractionCSV.detail(detail, zone: TimeZone(identifier: "America/New_York")!)
        #expect(csv == """
        Field,Value
        "Subject","Visit, ""official"" 🏈"
        "Type","In-Person Visit"
        "Direction","Inbound"
        "Sentiment","Positive"
        "School","N/A"
        "Coach","Jane Doe"
        "Date","Feb 3, 2026, 5:15 PM"
        "Content","Line one
        Line, two

        [Coach Interest Level: MEDIUM]"
        "Attachments","0"

        """)
    }

    @Test func csvFallsBackToOtherCoachAndNA() throws {
        var f = Fixture.family()
        f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","otherCoachName":"Al","type":"tweet","direction":"outbound","occurredAt":"2026-07-04T00:05:00Z"}"#)
        let csv = InteractionCSV.detail(try Self.detail(f, "u-maya", "i-1"), zone: TimeZone(identifier: "UTC")!)
        #expect(csv.contains("\"Subject\",\"Tweet\"\n\"Type\",\"Tweet\""))
        #expect(csv.contains("\"Sentiment\",\"N/A\""))
        #expect(csv.contains("\"Coach\",\"Al\""))
        #expect(csv.contains("\"Date\",\"Jul 4, 2026, 12:05 AM\""))
        #expect(csv.contains("\"Content\",\"N/A\""))
    }

    @Test func listExportHasTheItemKeysAndEmptyForNull() throws {
        let list = try InteractionListTests.list(InteractionListTests.fixture(), "u-pat", InteractionQuery(type: .dm))
        let csv = InteractionCSV.list(list.items)
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "id,type,typeName,direction,subject,displaySubject,content,sentiment,interestLevel,occurredAt,createdAt,loggedBy,loggedByName,schoolId,schoolName,coachId,coachName,otherCoachName,attachmentCount,canDelete")
        #expect(lines[1] == #""i-3","dm","Direct Message","inbound","Film 🔥","Film 🔥","Loved the highlight reel","","","2026-01-15T10:00:00.000Z","2026-02-01T12:10:00.000Z","u-maya","Maya Lopez","","","c-asu","Sam Reed","","0","false""#)
    }
}

@Suite struct DateTextTests {
    @Test(arguments: [
        ("2026-02-03T14:15:00Z", "UTC", "Feb 3, 2026, 2:15 PM"),
        ("2026-02-03T00:05:00Z", "UTC", "Feb 3, 2026, 12:05 AM"),
        ("2026-02-03T12:00:00Z", "UTC", "Feb 3, 2026, 12:00 PM"),
        ("2026-01-01T03:00:00Z", "America/Los_Angeles", "Dec 31, 2025, 7:00 PM"),
        ("2026-07-01T12:00:00Z", "Europe/Paris", "Jul 1, 2026, 2:00 PM"),     // summer time
        ("2026-01-01T12:00:00Z", "Asia/Kolkata", "Jan 1, 2026, 5:30 PM"),
    ])
    func longFormatInTheZone(time: String, zone: String, expected: String) {
        #expect(DateText.long(Timestamp(rfc3339: time)!, in: TimeZone(identifier: zone)!) == expected)
    }
}
