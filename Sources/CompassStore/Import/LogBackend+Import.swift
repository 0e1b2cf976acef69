import CompassCore

extension LogBackend {
    /// An import decided as one batch: the blocks are gathered first, then decided and written
    /// by one conditional append (a database decides them in one transaction). A backend
    /// that can take them a block at a time under one lock (the file) does so instead.
    func importLines(from source: inout some ImportSource, expectVersion: Int64?,
                     progress: ReadProgress?) throws(StoreError) -> ImportSummary {
        var all = ImportBlock()
        while let block = try source.nextBlock() { all.append(contentsOf: block) }
        var request = AppendRequest(expectVersion: expectVersion)
        // What the batch names: a database store reads only the families these are in (every
        // line names its family; else the whole store is read).
        if !all.drafts.contains(where: { $0.family.isEmpty }) {
            var users: Set<String> = []
            for (draft, payload) in zip(all.drafts, all.payloads) {
                users.insert(draft.actor)
                if case .success(.memberJoined(let joined)) = payload { users.insert(joined.userId) }
            }
            request.names = BatchNames(families: Set(all.drafts.map(\.family)), users: users, eventIds: Set(all.drafts.map(\.id)))
        }
        request.lineNumbers = all.lineNumbers
        request.prebuilt = all.payloads
        request.progress = progress
        let backend = self
        let refusedBefore = all.problems
        var refused: [Problem] = []
        var staged: [StagedAttachment] = []
        request.beforeWrite = { _ throws(StoreError) in
            if !refused.isEmpty { throw .rejectedLines([]) }  // decided, never written
            return try backend.saveBlobs(staged)
        }
        do throws(StoreError) {
            let outcome = try backend.append(request) { state, _ throws(StoreError) in
                var block = all
                block.problems = []
                try source.fill(&block, state: state)
                staged = try source.stage(&block, state: state)
                refused = refusedBefore + block.problems
                return block.drafts
            }
            var summary = ImportSummary()
            if case .written(let events) = outcome { for event in events { summary.add(family: event.family, seq: event.seq) } }
            return summary
        } catch {
            guard case .rejectedLines(let problems) = error else { throw error }
            throw .rejectedLines(ImportBlock.report(refused: refused.isEmpty ? refusedBefore : refused, decided: problems))
        }
    }
}
