import Foundation
import Testing
import CompassTestSupport
@testable import CompassCore
@testable import CompassStore

/// Read-your-writes (issue 56 item 3): a store that reads a standby finds its primary through
/// the same hosts. (On a real standby: `StandbyReadTests`, on the CI's formation; on a file
/// store, through the public API: `ReadYourWritesAppTests`.)
@Suite struct ReadYourWritesTests {
    /// A standby's primary is the same hosts asking for a read-write server; an address that
    /// already asks for one, or names one host without saying, names no other.
    @Test func aStandbysPrimaryIsTheSameHostsAskingForReadWrite() {
        let hosts = "postgresql://app@h1:6101,h2:6102/compass"
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=prefer-standby&sslmode=disable")
                == hosts + "?target_session_attrs=read-write&sslmode=disable")
        #expect(PrimaryAddress.of(hosts + "?sslmode=disable&target_session_attrs=standby") == hosts + "?sslmode=disable&target_session_attrs=read-write")
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=read-only") == hosts + "?target_session_attrs=read-write")
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=any") == hosts + "?target_session_attrs=read-write")
        #expect(PrimaryAddress.of(hosts) == hosts + "?target_session_attrs=read-write")
        #expect(PrimaryAddress.of(hosts + "?sslmode=disable") == hosts + "?sslmode=disable&target_session_attrs=read-write")
        #expect(PrimaryAddress.of("host=h1,h2 dbname=compass target_session_attrs=prefer-standby port=5432")
                == "host=h1,h2 dbname=compass target_session_attrs=read-write port=5432")
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=read-write") == nil)
        #expect(PrimaryAddress.of(hosts + "?target_session_attrs=primary") == nil)
        #expect(PrimaryAddress.of("postgresql://app@h1/compass") == nil)
        #expect(PrimaryAddress.of("postgresql:///compass?sslmode=disable") == nil)
    }
}
