import CompassCore
import CompassStore

/// `compass report [filters] > report.html`: the printable report of SPEC §3.6, with the
/// visibility and filters of `interactions`.
enum ReportCommand {
    static func run(_ inv: Invocation) throws {
        let query = try InteractionsCommand.query(inv)
        let context = try ReadContext(inv)
        do throws(StoreError) {
            inv.console.out(try context.views.report(query, zone: context.zone))
        } catch {
            throw InteractionsCommand.viewError(error)
        }
    }
}
