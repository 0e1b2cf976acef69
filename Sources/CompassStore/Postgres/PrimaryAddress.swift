/// The address of the primary among the servers a database address names: a store that reads
/// a standby (`target_session_attrs=prefer-standby`, `standby`, `read-only` or `any`) reads
/// the primary through the same hosts with `target_session_attrs=read-write`.
enum PrimaryAddress {
    /// The values of `target_session_attrs` that may reach a server that is not the primary.
    static let notPrimary: Set<String> = ["any", "standby", "prefer-standby", "read-only"]

    /// `address` asking for the primary, or nil when it names no other server to ask: it
    /// already asks for one (`read-write`, `primary`), or names one host without saying.
    static func of(_ address: String) -> String? {
        let key = "target_session_attrs="
        if let start = address.range(of: key) {
            let rest = address[start.upperBound...]
            let end = rest.firstIndex { $0 == "&" || $0 == " " } ?? rest.endIndex
            guard notPrimary.contains(String(rest[..<end])) else { return nil }
            return address.replacingCharacters(in: start.upperBound..<end, with: "read-write")
        }
        // A URL naming several hosts without saying which it wants.
        guard let scheme = address.range(of: "://") else { return nil }
        let authority = address[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
        guard authority.contains(",") else { return nil }
        return address + (address.contains("?") ? "&" : "?") + key + "read-write"
    }
}
