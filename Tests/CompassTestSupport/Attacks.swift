import Foundation

/// How long the long attack loops (kills, faults, chaos under load) run.
///
/// `swift test` runs them short, so a developer's run stays fast; `.ci/run` sets
/// `COMPASS_LONG_ATTACKS=1` and every loop runs at its full count on every change.
package enum Attacks {
    /// Whether the full counts were asked for.
    package static let long = ProcessInfo.processInfo.environment["COMPASS_LONG_ATTACKS"] == "1"

    /// `full` under `COMPASS_LONG_ATTACKS=1`, else `short`.
    package static func count(short: Int, full: Int) -> Int { long ? full : short }

    /// `full` seconds under `COMPASS_LONG_ATTACKS=1`, else `short`.
    package static func seconds(short: Double, full: Double) -> TimeInterval { long ? full : short }
}
