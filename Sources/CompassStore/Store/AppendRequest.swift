import CompassCore

/// What an append asks for besides its drafts.
package struct AppendRequest {
    /// The event's id, for an idempotent retry (a single-event append).
    package var eventId: String?
    /// Fail with a conflict unless the drafts' family is at this version (its last `seq`).
    package var expectVersion: Int64?
    /// Who appends: `build` may read their family.
    package var actor: String?
    /// Strip markup from subject and content.
    package var sanitizing = true
    /// For a numbered batch: each draft's line; every rejected draft is reported.
    package var lineNumbers: [Int]?
    /// Each draft's payload already built without the state (one per draft).
    package var prebuilt: [Result<Payload, EventError>]?
    /// Stores what the events point at; its undo runs if the write then fails.
    package var beforeWrite: BeforeWriting = { _ throws(StoreError) in {} }
    /// Called as the read before deciding goes.
    package var progress: ReadProgress?

    package init(eventId: String? = nil, expectVersion: Int64? = nil, actor: String? = nil) {
        self.eventId = eventId
        self.expectVersion = expectVersion
        self.actor = actor
    }
}
