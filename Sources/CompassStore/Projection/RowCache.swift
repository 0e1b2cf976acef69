import CompassCore

/// The rows a projector last wrote of some families, each as of its checkpoint, up to a budget
/// of rows: a family found here at the checkpoint the tables hold is written as the rows that
/// differ from these (computed here, an appended line's one row), not diffed by the server.
struct RowCache {
    private var entries: [String: (checkpoint: Projector.Checkpoint, rows: FamilyRows, stamp: Int)] = [:]
    /// Families in the order they were kept (with the stamp they were kept with), oldest first.
    private var order: [(family: String, stamp: Int)] = []
    private var oldest = 0
    private var stamp = 0
    private var count = 0
    /// The most rows kept; the families kept longest ago go first.
    let budget: Int

    init(budget: Int) { self.budget = budget }

    /// The rows kept of `family` if they are as of `checkpoint`.
    func rows(of family: String, at checkpoint: Projector.Checkpoint?) -> FamilyRows? {
        guard let checkpoint, let entry = entries[family], entry.checkpoint == checkpoint else { return nil }
        return entry.rows
    }

    /// Keeps `rows` as the family's rows at `checkpoint`.
    mutating func keep(_ rows: FamilyRows, at checkpoint: Projector.Checkpoint) {
        if let old = entries[rows.family] { count -= old.rows.count }
        stamp += 1
        entries[rows.family] = (checkpoint, rows, stamp)
        order.append((rows.family, stamp))
        count += rows.count
        while count > budget, oldest < order.count {
            let (family, kept) = order[oldest]
            oldest += 1
            if let entry = entries[family], entry.stamp == kept {
                count -= entry.rows.count
                entries[family] = nil
            }
        }
        if oldest > 1024, oldest * 2 > order.count {
            order.removeFirst(oldest)
            oldest = 0
        }
    }

    /// Forgets every family (the tables were rebuilt).
    mutating func removeAll() {
        entries = [:]
        order = []
        oldest = 0
        count = 0
    }
}
