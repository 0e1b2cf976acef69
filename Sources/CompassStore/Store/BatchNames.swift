import CompassCore

/// The families, users and event ids a batch names: a database store reads only the families
/// these are in.
package struct BatchNames: Sendable {
    package var families: Set<String>
    package var users: Set<String>
    package var eventIds: Set<String>

    package init(families: Set<String>, users: Set<String>, eventIds: Set<String>) {
        self.families = families
        self.users = users
        self.eventIds = eventIds
    }
}
