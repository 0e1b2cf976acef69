/// What one projection pass did (`projected N lines of F families`).
public struct ProjectionSummary: Equatable, Sendable {
    /// Lines of the source projected by this pass: for each family written, how far its
    /// checkpoint moved.
    public var lines: Int64 = 0
    /// Families whose rows and checkpoint this pass wrote.
    public var families = 0
    /// Rows inserted plus rows deleted (a changed row counts twice): what the tables were
    /// written, one row per appended line in the usual case.
    public var rowsWritten = 0
    /// Whether the pass built the tables anew and swapped them in.
    public var rebuilt = false

    public init() {}
}
