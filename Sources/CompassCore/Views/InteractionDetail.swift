/// The interaction detail page (SPEC §3.2): the list item plus its links and files.
public struct InteractionDetail: Hashable, Sendable, Codable {
    /// The list item.
    public var item: InteractionItem
    /// The id of the event that logged it.
    public var eventId: String?
    /// The attached files (name, size, MIME type, SHA-256).
    public var attachments: [Attachment]
    /// Players may export; parents see a read-only page.
    public var canExport: Bool
}

extension InteractionViews {
    /// The detail of one interaction, or `Interaction not found` when it is deleted, in
    /// another family or not visible to the viewer (its existence is never revealed).
    public static func detail(_ state: CompassState, viewer: Viewer, interactionId: String) throws(EventError) -> InteractionDetail {
        guard let family = state.families[viewer.family], let record = family.liveInteraction(interactionId),
              viewer.sees(actor: record.loggedBy) else { throw EventError(RuleMessage.interactionNotFound, kind: .notFound) }
        let item = item(record, shownContent: record.logged.shownContent, family: family, state: state, viewer: viewer)
        return InteractionDetail(item: item, eventId: record.logged.eventId, attachments: record.logged.attachments ?? [],
                                 canExport: viewer.role == .player)
    }
}
