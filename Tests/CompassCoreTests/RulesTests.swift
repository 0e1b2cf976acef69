import Testing
@testable import CompassCore

/// Every rule of SPEC §2, accepted and rejected, with its message.
@Suite struct MemberAndSchoolRulesTests {
    @Test func firstMemberMustBeTheJoiningUser() {
        var f = Fixture()
        #expect(f.apply("MemberJoined", "u-x", #"{"userId":"u-pat","fullName":"Pat","role":"parent"}"#)
                == "Only family members can add members")
        #expect(f.apply("MemberJoined", "u-pat", #"{"userId":"u-pat","fullName":"Pat","role":"parent"}"#) == nil)
    }

    @Test(arguments: [
        (#"{"userId":"u-pat","fullName":"Again","role":"parent"}"#, "User u-pat is already a member"),
        (#"{"userId":"u-new","fullName":"   ","role":"parent"}"#, "Name is required"),
        (#"{"userId":"u-new","role":"parent"}"#, "Name is required"),
        (#"{"userId":"u-new","fullName":7,"role":"parent"}"#, "Name is required"),
        (#"{"userId":"u-new","fullName":"New","role":"coach"}"#, "Invalid role"),
        (#"{"userId":"u-new","fullName":"New"}"#, "Invalid role"),
        (#"{"fullName":"New","role":"player"}"#, "missing field data.userId"),
        (#"{"userId":"bad id","fullName":"New","role":"player"}"#, "field data.userId must be an id"),
    ])
    func memberJoinedRejections(data: String, message: String) {
        var f = Fixture.family()
        #expect(f.apply("MemberJoined", "u-pat", data) == message)
    }

    @Test func onlyFamilyMembersCanAddMembers() {
        var f = Fixture.family()
        f.must("MemberJoined", "u-zed", #"{"userId":"u-zed","fullName":"Zed","role":"parent"}"#, family: "other")
        #expect(f.apply("MemberJoined", "u-zed", #"{"userId":"u-new","fullName":"New","role":"player"}"#)
                == "Only family members can add members")
        #expect(f.apply("MemberJoined", "u-maya", #"{"userId":"u-new","fullName":"New","role":"player"}"#) == nil)
    }

    @Test func aUserBelongsToOneFamilyOnly() {
        var f = Fixture.family()
        #expect(f.apply("MemberJoined", "u-maya", #"{"userId":"u-maya","fullName":"Maya","role":"player"}"#, family: "other")
                == "User u-maya is already a member")
    }

    @Test(arguments: [
        (#"{"schoolId":"s-ucla","name":"UCLA again"}"#, "School s-ucla already exists"),
        (#"{"schoolId":"s-new","name":" "}"#, "School name is required"),
        (#"{"schoolId":"s-new","name":"\#(String(repeating: "x", count: 201))"}"#, "School name must be 200 characters or less"),
        (#"{"schoolId":"s-new","name":"New","status":"Offer Received"}"#, "Invalid status"),
        (#"{"schoolId":"s-new","name":"New","status":5}"#, "Invalid status"),
    ])
    func schoolAddedRejections(data: String, message: String) {
        var f = Fixture.family()
        #expect(f.apply("SchoolAdded", "u-pat", data) == message)
    }

    @Test func schoolNameOfExactly200IsAcceptedAndAnotherFamilyMayReuseTheId() {
        var f = Fixture.family()
        #expect(f.apply("SchoolAdded", "u-pat", #"{"schoolId":"s-new","name":"\#(String(repeating: "x", count: 200))","status":"offer_received"}"#) == nil)
        f.must("MemberJoined", "u-zed", #"{"userId":"u-zed","fullName":"Zed","role":"parent"}"#, family: "other")
        #expect(f.apply("SchoolAdded", "u-zed", #"{"schoolId":"s-ucla","name":"UCLA"}"#, family: "other") == nil)
    }

    @Test func nonMembersAreUnknownBeforeAnythingElse() {
        var f = Fixture.family()
        f.must("MemberJoined", "u-zed", #"{"userId":"u-zed","fullName":"Zed","role":"parent"}"#, family: "other")
        #expect(f.apply("SchoolAdded", "u-ghost", #"{}"#) == "Unknown user u-ghost")
        // A member of another family is unknown here too, never "forbidden".
        #expect(f.apply("SchoolAdded", "u-zed", #"{"schoolId":"s-x","name":"X"}"#) == "Unknown user u-zed")
        #expect(f.apply("DocumentUploaded", "u-zed", #"{}"#) == "Unknown user u-zed")
    }

    @Test(arguments: [
        (#"{"coachId":"c-ucla","schoolId":"s-ucla","firstName":"A","lastName":"B","role":"head"}"#, "Coach c-ucla already exists"),
        (#"{"coachId":"c-new","schoolId":"s-nope","firstName":"A","lastName":"B","role":"head"}"#, "Please select a school"),
        (#"{"coachId":"c-new","firstName":"A","lastName":"B","role":"head"}"#, "Please select a school"),
        (#"{"coachId":"c-new","schoolId":"s-ucla","firstName":"","lastName":"B","role":"head"}"#, "First name is required"),
        (#"{"coachId":"c-new","schoolId":"s-ucla","firstName":"A","lastName":"\t","role":"head"}"#, "Last name is required"),
        (#"{"coachId":"c-new","schoolId":"s-ucla","firstName":"A","lastName":"B","role":"boss"}"#, "Invalid coach role"),
    ])
    func coachAddedRejections(data: String, message: String) {
        var f = Fixture.family()
        #expect(f.apply("CoachAdded", "u-pat", data) == message)
    }

    @Test func schoolsOfAnotherFamilyAreNotFound() {
        var f = Fixture.family()
        f.must("MemberJoined", "u-zed", #"{"userId":"u-zed","fullName":"Zed","role":"parent"}"#, family: "other")
        #expect(f.apply("CoachAdded", "u-zed", #"{"coachId":"c-1","schoolId":"s-ucla","firstName":"A","lastName":"B","role":"head"}"#, family: "other")
                == "Please select a school")
    }

    @Test(arguments: [
        (#"{"schoolId":"s-nope","newStatus":"committed"}"#, "Please select a school"),
        (#"{"schoolId":"s-ucla","newStatus":"Committed!"}"#, "Invalid status"),
        (#"{"schoolId":"s-ucla","newStatus":"\#(String(repeating: "a", count: 41))"}"#, "Invalid status"),
        (#"{"schoolId":"s-ucla"}"#, "Invalid status"),
    ])
    func statusChangeRejections(data: String, message: String) {
        var f = Fixture.family()
        #expect(f.apply("SchoolStatusChanged", "u-pat", data) == message)
    }

    @Test func statusChangeUpdatesTheSchool() {
        var f = Fixture.family()
        #expect(f.apply("SchoolStatusChanged", "u-maya", #"{"schoolId":"s-ucla","newStatus":"offer_received","notes":"Full ride"}"#) == nil)
        #expect(f.state.families["fam"]?.schools["s-ucla"]?.status == "offer_received")
        #expect(f.state.families["fam"]?.statusChanges.first?.change.notes == "Full ride")
    }

    @Test(arguments: [
        (#"{"documentId":"d-1","title":"","docType":"transcript"}"#, "Title is required"),
        (#"{"documentId":"d-1","title":"\#(String(repeating: "é", count: 201))","docType":"transcript"}"#, "Title must be 200 characters or less"),
        (#"{"documentId":"d-1","title":"T","docType":"PDF"}"#, "Invalid document type"),
        (#"{"documentId":"d-1","title":"T","docType":"transcript","sizeBytes":-1}"#, "field data.sizeBytes must be an integer ≥ 0"),
        (#"{"documentId":"d-1","title":"T","docType":"transcript","sizeBytes":1.5}"#, "field data.sizeBytes must be an integer ≥ 0"),
        // v3: the bytes' hash is 64 lower-case hex digits, and needs the size.
        (#"{"documentId":"d-1","title":"T","docType":"transcript","sizeBytes":3,"sha256":"ABC"}"#, "Invalid file hash"),
        (#"{"documentId":"d-1","title":"T","docType":"transcript","sizeBytes":3,"sha256":"\#(String(repeating: "A", count: 64))"}"#, "Invalid file hash"),
        (#"{"documentId":"d-1","title":"T","docType":"transcript","sizeBytes":3,"sha256":7}"#, "Invalid file hash"),
        (#"{"documentId":"d-1","title":"T","docType":"transcript","sha256":"\#(String(repeating: "a", count: 64))"}"#, "missing field sizeBytes"),
        (#"{"documentId":"d-1","title":"","docType":"transcript","sha256":"x"}"#, "Title is required"),
    ])
    func documentRejections(data: String, message: String) {
        var f = Fixture.family()
        #expect(f.apply("DocumentUploaded", "u-pat", data) == message)
    }

    @Test func aDocumentWithItsBytesHashKeepsItAndNamesTheBlob() {
        var f = Fixture.family()
        let hash = String(repeating: "ab", count: 32)
        #expect(f.apply("DocumentUploaded", "u-maya", #"{"documentId":"d-1","title":"T","docType":"transcript","sizeBytes":3,"sha256":"\#(hash)"}"#) == nil)
        #expect(f.state.families["fam"]?.documents["d-1"]?.document.sha256 == hash)
        #expect(f.state.families["fam"]?.attachmentHashes == [hash])
    }

    /// `verify` and a family's blob list visit only the interactions whose attachments name
    /// stored bytes (noted as each list is added), never every row: held to a walk of every
    /// record, in order, deleted ones included, after the rules' appends and after a
    /// snapshot section's decode.
    @Test func theInteractionsNamingBlobsAreTheOnesAWalkOfEveryRecordFinds() {
        var f = Fixture.family()
        var rng = SplitMix64(seed: 7)
        for n in 0..<300 {
            let attachments = (0..<rng.below(3)).map { a in
                let sha = rng.below(3) == 0 ? #","sha256":"\#(String(repeating: String(n % 10), count: 64))""# : ""
                return #"{"name":"f\#(a).pdf","sizeBytes":\#(n + 1),"mimeType":"application/pdf"\#(sha)}"#
            }
            let list = rng.below(4) == 0 ? "" : #","attachments":[\#(attachments.joined(separator: ","))]"#
            f.must("InteractionLogged", "u-maya", #"{"interactionId":"i-\#(n)","schoolId":"s-ucla","type":"email","direction":"inbound"\#(list)}"#)
            if rng.below(5) == 0 { f.must("InteractionDeleted", "u-maya", #"{"interactionId":"i-\#(n)"}"#) }
        }
        func walked(_ table: InteractionTable) -> [String] {
            table.records.compactMap { record in
                guard let list = record.logged.attachments, list.contains(where: { $0.sha256 != nil }) else { return nil }
                return record.logged.interactionId + " " + list.map { "\($0)" }.joined(separator: ",")
            }
        }
        func visited(_ table: InteractionTable) -> [String] {
            var seen: [String] = []
            table.forEachHashedAttachmentList { id, list in seen.append(id + " " + list.map { "\($0)" }.joined(separator: ",")) }
            return seen
        }
        let family = f.state.families["fam"]!
        #expect(walked(family.interactions).count > 50)
        #expect(visited(family.interactions) == walked(family.interactions))
        let decoded = SnapshotCodec.decodeFamily(SnapshotCodec.familySection(family))
        #expect(decoded?.interactions == family.interactions)
        #expect(decoded.map { visited($0.interactions) } == walked(family.interactions))
        #expect(family.attachmentHashes == Set((0..<10).map { String(repeating: String($0), count: 64) }))
    }

    @Test func documentIdsAreUniqueInTheFamily() {
        var f = Fixture.family()
        #expect(f.apply("DocumentUploaded", "u-maya", #"{"documentId":"d-1","title":"Transcript","docType":"transcript","fileName":"t.pdf","sizeBytes":0}"#) == nil)
        #expect(f.apply("DocumentUploaded", "u-pat", #"{"documentId":"d-1","title":"Again","docType":"transcript"}"#) == "Document d-1 already exists")
    }

    @Test func unknownTypesVersionsAndDuplicateIdsAreRejectedFirst() {
        var f = Fixture.family()
        var d = f.draft("SchoolAdded", "u-pat", #"{"schoolId":"s-v2","name":"V2"}"#)
        d.version = 2
        #expect(throws: EventError("unsupported version 2", kind: .unsupportedVersion)) { try Rules.decide(d, in: f.state) }
        d = f.draft("TeamFormed", "u-pat", #"{}"#)
        #expect(throws: EventError("unknown event type TeamFormed", kind: .unknownType)) { try Rules.decide(d, in: f.state) }
        d = f.draft("SchoolAdded", "u-pat", #"{"schoolId":"s-dup","name":"Dup"}"#)
        d.id = "e-1"
        #expect(throws: EventError("duplicate event id e-1", kind: .duplicate)) { try Rules.decide(d, in: f.state) }
    }
}

/// SPEC §2.1: InteractionLogged and InteractionDeleted.
@Suite struct InteractionRulesTests {
    static let base = #""interactionId":"i-9","schoolId":"s-ucla","type":"email","direction":"inbound""#

    @Test func aPlayerLogsAnInteractionWithEveryField() throws {
        var f = Fixture.family()
        let data = #"{"interactionId":"i-1","schoolId":"s-ucla","coachId":"c-ucla","eventId":"ev-1","otherCoachName":"Al","type":"in_person_visit","direction":"inbound","occurredAt":"2026-01-31T09:00:00-08:00","subject":"Visit","content":"Great","sentiment":"very_positive","interestAnswers":[true,true,true,true,false,false],"attachments":[{"name":"a.pdf","sizeBytes":10485760,"mimeType":"application/pdf","sha256":null}]}"#
        #expect(f.apply("InteractionLogged", "u-maya", data) == nil)
        let record = try #require(f.state.families["fam"]?.interactions["i-1"])
        #expect(record.loggedBy == "u-maya")
        #expect(record.logged.occurredAt?.rfc3339 == "2026-01-31T17:00:00.000Z")
        #expect(record.logged.interestLevel == .high)
        #expect(record.logged.shownContent == "Great\n\n[Coach Interest Level: HIGH]")
        #expect(record.logged.attachments?.first?.sha256 == nil)
    }

    @Test(arguments: [
        ("u-pat", #"{\#(base)}"#, "Only players can create interactions"),
        ("u-maya", #"{"interactionId":"i-1","type":"email","direction":"inbound"}"#, "Please select a school"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-nope","type":"email","direction":"inbound"}"#, "Please select a school"),
        ("u-maya", #"{"interactionId":"i-1","coachId":"c-nope","type":"email","direction":"inbound"}"#, "Invalid coach selection"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","coachId":"c-asu","type":"email","direction":"inbound"}"#, "Invalid coach selection"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"letter","direction":"inbound"}"#, "Please select an interaction type"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"sideways"}"#, "Please select a direction"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"inbound","occurredAt":"2026-02-30T10:00:00Z"}"#, "Please select a date and time"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"inbound","sentiment":"ecstatic"}"#, "Invalid sentiment value"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"outbound","sentiment":"positive","interestAnswers":[true,false,false,false,false,false]}"#,
         "Interest calibration applies only to inbound interactions with positive sentiment"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"inbound","sentiment":"neutral","interestAnswers":[true,false,false,false,false,false]}"#,
         "Interest calibration applies only to inbound interactions with positive sentiment"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"inbound","sentiment":"positive","interestAnswers":[true,false]}"#,
         "Interest calibration applies only to inbound interactions with positive sentiment"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"inbound","attachments":[{"name":"big.pdf","sizeBytes":10485761,"mimeType":"application/pdf"}]}"#, "File exceeds 10MB limit"),
        ("u-maya", #"{"interactionId":"i-1","schoolId":"s-ucla","type":"email","direction":"inbound","attachments":[{"name":"x.exe","sizeBytes":1,"mimeType":"application/x-msdownload"}]}"#, "Unsupported file type"),
    ])
    func interactionRejections(actor: String, data: String, message: String) {
        var f = Fixture.family()
        #expect(f.apply("InteractionLogged", actor, data) == message)
    }

    @Test func allFalseCalibrationIsAllowedAndShowsNoNote() throws {
        var f = Fixture.family()
        #expect(f.apply("InteractionLogged", "u-maya", #"{\#(Self.base),"sentiment":"positive","interestAnswers":[false,false,false,false,false,false]}"#) == nil)
        let logged = try #require(f.state.families["fam"]?.interactions["i-9"]?.logged)
        #expect(logged.interestLevel == nil)
        #expect(logged.shownContent == nil)
    }

    @Test(arguments: [(1, InterestLevel.low), (2, .medium), (3, .medium), (4, .high), (6, .high)])
    func interestLevelFromYesCount(yes: Int, level: InterestLevel) {
        #expect(InterestLevel.from(answers: (0..<6).map { $0 < yes }) == level)
    }

    @Test func subjectLimitCountsUTF16UnitsSoEmojiCountTwice() {
        var f = Fixture.family()
        let exactly500 = String(repeating: "🔥", count: 250)
        let over = exactly500 + "a"
        #expect(exactly500.utf16.count == 500)
        #expect(f.apply("InteractionLogged", "u-maya", #"{\#(Self.base),"subject":\#(exactly500.jsonLiteral)}"#) == nil)
        #expect(f.apply("InteractionLogged", "u-maya", #"{"interactionId":"i-10","schoolId":"s-ucla","type":"email","direction":"inbound","subject":\#(over.jsonLiteral)}"#)
                == "Subject must be 500 characters or less")
    }

    @Test func contentLimitIsTenThousand() {
        var f = Fixture.family()
        let ok = String(repeating: "ab", count: 5000)
        #expect(f.apply("InteractionLogged", "u-maya", #"{\#(Self.base),"content":\#(ok.jsonLiteral)}"#) == nil)
        #expect(f.apply("InteractionLogged", "u-maya", #"{"interactionId":"i-10","schoolId":"s-ucla","type":"email","direction":"inbound","content":\#((ok + "c").jsonLiteral)}"#)
                == "Content must be 10,000 characters or less")
    }

    @Test func sanitizingHappensOnAppendAndBeforeTheLimit() throws {
        var f = Fixture.family()
        let padded = "<b>" + String(repeating: "x", count: 500) + "</b>"
        #expect(f.apply("InteractionLogged", "u-maya", #"{\#(Self.base),"subject":\#(padded.jsonLiteral),"content":"<script>alert(1)</script>"}"#, sanitizing: true) == nil)
        let logged = try #require(f.state.families["fam"]?.interactions["i-9"]?.logged)
        #expect(logged.subject == String(repeating: "x", count: 500))
        #expect(logged.content == nil)  // empty after sanitizing means absent
    }

    @Test func replayDoesNotSanitize() throws {
        var f = Fixture.family()
        #expect(f.apply("InteractionLogged", "u-maya", #"{\#(Self.base),"subject":"<b>bold</b>"}"#) == nil)
        #expect(f.state.families["fam"]?.interactions["i-9"]?.logged.subject == "<b>bold</b>")
    }

    @Test func emptyAndNullOptionalFieldsAreAbsent() throws {
        var f = Fixture.family()
        #expect(f.apply("InteractionLogged", "u-maya", #"{\#(Self.base),"coachId":null,"subject":"","content":null,"sentiment":null,"eventId":""}"#) == nil)
        let logged = try #require(f.state.families["fam"]?.interactions["i-9"]?.logged)
        #expect(logged.subject == nil && logged.content == nil && logged.sentiment == nil && logged.coachId == nil && logged.eventId == nil)
    }

    @Test func interactionIdsStayUsedAfterDeletion() {
        var f = Fixture.family()
        f.must("InteractionLogged", "u-maya", #"{\#(Self.base)}"#)
        #expect(f.apply("InteractionDeleted", "u-maya", #"{"interactionId":"i-9"}"#) == nil)
        #expect(f.apply("InteractionLogged", "u-maya", #"{\#(Self.base)}"#) == "Interaction i-9 already exists")
        #expect(f.apply("InteractionDeleted", "u-maya", #"{"interactionId":"i-9"}"#) == "Interaction not found")
    }

    @Test func onlyTheLoggingPlayerDeletes() {
        var f = Fixture.family()
        f.must("InteractionLogged", "u-maya", #"{\#(Self.base)}"#)
        #expect(f.apply("InteractionDeleted", "u-pat", #"{"interactionId":"i-9"}"#) == "Only the player who logged this interaction can delete it")
        #expect(f.apply("InteractionDeleted", "u-leo", #"{"interactionId":"i-9"}"#) == "Interaction not found")
        #expect(f.apply("InteractionDeleted", "u-maya", #"{"interactionId":"i-404"}"#) == "Interaction not found")
        #expect(f.apply("InteractionDeleted", "u-maya", #"{"interactionId":"i-9"}"#) == nil)
        #expect(f.state.liveInteractionCount == 0)
    }
}

@Suite struct SanitizerTests {
    @Test(arguments: [
        ("<b>Hi</b> there", "Hi there"),
        ("a<script type=\"x\">alert(1)</script >b", "ab"),
        ("a<SCRIPT>x\ny</Script>b", "ab"),
        ("a<style>p{}</style>b<i>c</i>", "abc"),
        ("a < b", "a < b"),                       // no later `>`: stays
        ("1 < 2 and 3 > 2", "1  2"),              // `< 2 and 3 >` is a tag to the regex
        ("&lt;b&gt; stays", "&lt;b&gt; stays"),    // entities left alone
        ("  spaced  ", "  spaced  "),              // no trimming
        ("<scripts>x</scripts>", "x"),             // \b: not a script tag, only tags removed
        ("<script>never closed", "never closed"),
        ("🔥<b>é</b>", "🔥é"),
    ])
    func sanitizes(input: String, output: String) {
        #expect(Sanitizer.sanitize(input) == output)
    }
}

@Suite struct IdentifierTests {
    @Test(arguments: [
        ("Arizona State", "arizona-state"), ("Sofía Ramírez", "sofia-ramirez"), ("Texas A&M", "texas-a-m"),
        ("  UCLA!! ", "ucla"), ("🔥", ""), ("Université Laval", "universite-laval"),
    ])
    func slugsFoldAccentsAndJoinWordsWithDashes(name: String, slug: String) {
        #expect(Identifier.slug(name) == slug)
    }

    @Test(arguments: [("s-ucla", true), ("A.b:c_d-9", true), (String(repeating: "x", count: 64), true),
                      (String(repeating: "x", count: 65), false), ("", false), ("has space", false), ("é", false), ("a/b", false)])
    func idsAreOneToSixtyFourSafeCharacters(id: String, valid: Bool) {
        #expect(Identifier.isValid(id) == valid)
    }
}

/// Id fields are read from their bytes (the text is built only for a valid id): what each
/// reader makes of every kind of value, through the tree and through the tape.
@Suite struct IdFieldTests {
    static let at = Timestamp(rfc3339: "2026-01-01T00:00:00Z")!

    /// `ok interactionId|schoolId|coachId|eventId` (`-` for nil) or the message, through the
    /// built tree and through the line's tape, which must agree.
    static func outcome(_ fields: String) -> String {
        let data = "{\(fields),\"type\":\"email\",\"direction\":\"inbound\"}"
        func describe(_ result: Result<Payload, EventError>) -> String {
            switch result {
            case .failure(let error): return error.message
            case .success(.interactionLogged(let e)):
                return "ok " + [e.interactionId, e.schoolId ?? "-", e.coachId ?? "-", e.eventId ?? "-"].joined(separator: "|")
            case .success(let other): return "other \(other)"
            }
        }
        guard case .object(let object)? = JSONParser.parse(data) else { return "bad test data" }
        let draft = EventDraft(seq: 1, id: "e-1", type: "InteractionLogged", at: at, actor: "u", family: "f", data: object, version: 1, prev: nil)
        let tree = describe(Result { () throws(EventError) in try Rules.payloadIgnoringState(draft, sanitizing: false) })
        let line = Array(#"{"seq":1,"id":"e-1","type":"InteractionLogged","at":"2026-01-01T00:00:00Z","actor":"u","family":"f","data":"#.utf8)
            + Array(data.utf8) + [UInt8(ascii: "}")]
        var tape = JSONTape()
        let prepared = line.withUnsafeBufferPointer { PreparedLine($0, keepingPayload: true, tape: &tape) }
        guard case .draft(_, let payload) = prepared.content else { return "not a draft: \(prepared.content)" }
        let read = describe(payload)
        return read == tree ? read : "tree: \(tree), tape: \(read)"
    }

    @Test(arguments: [
        (#""interactionId":"i-1","schoolId":"s-1""#, "ok i-1|s-1|-|-"),
        (#""interactionId":"i\u002d1","schoolId":"s\u002D1""#, "ok i-1|s-1|-|-"),
        (#""interactionId":"\#(String(repeating: "x", count: 64))","schoolId":"s""#, "ok \(String(repeating: "x", count: 64))|s|-|-"),
        (#""schoolId":"s""#, "missing field data.interactionId"),
        (#""interactionId":null,"schoolId":"s""#, "missing field data.interactionId"),
        (#""interactionId":"","schoolId":"s""#, "field data.interactionId must be an id"),
        (#""interactionId":7,"schoolId":"s""#, "field data.interactionId must be an id"),
        (#""interactionId":["i"],"schoolId":"s""#, "field data.interactionId must be an id"),
        (#""interactionId":"é","schoolId":"s""#, "field data.interactionId must be an id"),
        (#""interactionId":"i 1","schoolId":"s""#, "field data.interactionId must be an id"),
        (#""interactionId":"\#(String(repeating: "x", count: 65))","schoolId":"s""#, "field data.interactionId must be an id"),
        // A reference: absent when null or empty, its own message otherwise.
        (#""interactionId":"i","schoolId":"","coachId":"c""#, "ok i|-|c|-"),
        (#""interactionId":"i","schoolId":null,"coachId":"c""#, "ok i|-|c|-"),
        (#""interactionId":"i","schoolId":7,"coachId":"c""#, "Please select a school"),
        (#""interactionId":"i","schoolId":"s/1","coachId":"c""#, "Please select a school"),
        (#""interactionId":"i","schoolId":"s","coachId":false"#, "Invalid coach selection"),
        (#""interactionId":"i","schoolId":"","coachId":"""#, "Please select a school"),
        // An optional id: absent when null or empty, a shape message otherwise.
        (#""interactionId":"i","schoolId":"s","eventId":"""#, "ok i|s|-|-"),
        (#""interactionId":"i","schoolId":"s","eventId":null"#, "ok i|s|-|-"),
        (#""interactionId":"i","schoolId":"s","eventId":"ev:1""#, "ok i|s|-|ev:1"),
        (#""interactionId":"i","schoolId":"s","eventId":1.5"#, "field data.eventId must be an id"),
        (#""interactionId":"i","schoolId":"s","eventId":"ev\n""#, "field data.eventId must be an id"),
    ])
    func idFieldsAreReadAsTheSpecSays(fields: String, expected: String) {
        #expect(Self.outcome(fields) == expected)
    }
}
