/// The notifications projection: pure functions of the state and the viewer.
public enum NotificationViews {
    /// Every live inbound interaction the viewer can see and that was logged after the viewer
    /// joined (a parent who joins later is not alerted for the past), unless the viewer's
    /// inbound alerts were off at its line (a setting is in effect from its own line on; on by
    /// default).
    public static func list(_ state: CompassState, viewer: Viewer, unreadOnly: Bool = false) -> NotificationList {
        guard let family = state.families[viewer.family], let member = state.members[viewer.userId]
        else { return NotificationList(unread: 0, items: []) }
        let joined = member.joinedSeq
        let settings = family.alertSettings[viewer.userId] ?? []
        let readUpTo = family.readUpTo[viewer.userId]
        var items: [NotificationItem] = []
        family.forEachVisibleInteraction(to: viewer) { record in
            let logged = record.logged
            guard logged.direction == .inbound, record.seq > joined, alertsOn(settings, at: record.seq) else { return }
            let coach = logged.coachId.flatMap { family.coaches[$0]?.fullName } ?? logged.otherCoachName ?? "A coach"
            items.append(NotificationItem(
                id: "notification-\(logged.interactionId)", interactionId: logged.interactionId,
                title: "New Contact from \(coach)",
                message: "\(coach) reached out via \(logged.type.displayName). View the interaction to see details.",
                createdAt: record.at, read: readUpTo.map { $0 >= record.seq } ?? false,
                clickUrl: "/interactions/\(logged.interactionId)", seq: record.seq))
        }
        items.sort { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id < $1.id }
        let unread = items.count { !$0.read }
        return NotificationList(unread: unread, items: unreadOnly ? items.filter { !$0.read } : items)
    }

    /// Whether alerts were on for an interaction at line `seq`: the last switch before it.
    static func alertsOn(_ settings: [AlertSetting], at seq: Int64) -> Bool {
        settings.last { $0.seq < seq }?.inboundAlerts ?? true
    }
}
