/// A coach added while logging an interaction.
public struct NewCoach: Sendable, Hashable {
    /// The coach's first name.
    public var firstName: String
    /// The coach's last name.
    public var lastName: String
    /// `head`, `assistant` or `recruiting`.
    public var role: String

    public init(firstName: String, lastName: String, role: String) {
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
    }
}
