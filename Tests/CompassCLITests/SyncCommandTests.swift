import Foundation
import Testing
import CompassTestSupport
import CompassCore
import CompassStore

/// `compass sync` (SPEC §7) as a family uses it: a phone and a laptop cloned from the family's
/// log, writing offline, syncing in turn.
@Suite struct SyncCommandTests {
    /// The README's sample family as the remote, and two devices cloned from it.
    static func family() -> CLIHarness {
        let cli = CLIHarness()
        cli.write("remote.jsonl", String(decoding: FileManager.default.contents(atPath: Binary.packageRoot + "/events-samples/family.jsonl")!, as: UTF8.self))
        try? FileManager.default.copyItem(atPath: Binary.packageRoot + "/events-samples/family.jsonl.attachments",
                                          toPath: cli.directory + "/remote.jsonl.attachments")
        return cli
    }

    static func sync(_ cli: CLIHarness, _ device: String, as user: String) -> CLIHarness.Result {
        cli.run(["sync", "--log", cli.directory + "/" + device, "--remote", "remote.jsonl", "--as", user])
    }

    @Test func aPhoneAndALaptopThatWroteOfflineEndWithTheRemotesStreamByteForByte() throws {
        let cli = Self.family()
        let clone = Self.sync(cli, "phone.jsonl", as: "u-maya")
        #expect(clone.status == 0, "\(clone.stderr)")
        #expect(clone.stdout.hasPrefix("cloned family fam-lopez into ") && clone.stdout.contains("pushed 0, pulled 79, refused 0\nhead "), "\(clone.stdout)")
        #expect(Self.sync(cli, "laptop.jsonl", as: "u-pat").status == 0)
        let phone = ["--log", cli.directory + "/phone.jsonl"], laptop = ["--log", cli.directory + "/laptop.jsonl"]
        // Offline: both log an interaction (default ids that would both be i-48), both add Rice.
        #expect(cli.run(["log-interaction", "--as", "u-maya", "--school", "s-ucla", "--type", "email", "--direction", "outbound", "--subject", "From the phone"] + phone).status == 0)
        #expect(cli.run(["log-interaction", "--as", "u-leo", "--school", "s-ucla", "--type", "text", "--direction", "outbound", "--subject", "From the laptop"] + laptop).status == 0)
        #expect(cli.run(["add-school", "--as", "u-maya", "--name", "Rice Owls"] + phone).status == 0)
        #expect(cli.run(["add-school", "--as", "u-pat", "--name", "Rice Owls"] + laptop).status == 0)
        #expect(cli.run(["change-status", "--as", "u-pat", "--school", "s-ucla", "--status", "offer_received"] + laptop).status == 0)
        let first = Self.sync(cli, "phone.jsonl", as: "u-maya")
        #expect(first.status == 0 && first.stdout.hasPrefix("pushed 2, pulled 0, refused 0\n"), "\(first.stdout)\(first.stderr)")
        // The laptop's Rice has the phone's id: refused as on one device, and reported.
        let second = Self.sync(cli, "laptop.jsonl", as: "u-pat")
        #expect(second.status == 1, "\(second.stdout)")
        #expect(second.stdout.contains(": School s-rice-owls already exists\n") && second.stdout.contains("pushed 2, pulled 2, refused 1\n"), "\(second.stdout)")
        #expect(Self.sync(cli, "phone.jsonl", as: "u-maya").stdout.hasPrefix("pushed 0, pulled 2, refused 0\n"))
        let remote = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/remote.jsonl"))
        for device in ["phone.jsonl", "laptop.jsonl"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/" + device)) == remote, "\(device) differs from the remote")
            #expect(cli.run(["verify", "--log", cli.directory + "/" + device]).status == 0)
        }
        // The two interactions kept their own ids: each device's tag.
        let ids = try JSONSerialization.jsonObject(with: Data(cli.run(["interactions", "--as", "u-pat", "--json", "--log", "remote.jsonl"]).stdout.utf8))
        let items = ((ids as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let tagged = items.filter { $0.hasPrefix("i-48.") }
        #expect(tagged.count == 2 && Set(tagged).count == 2, "\(items.prefix(4))")
        #expect(tagged.allSatisfy { SyncState.isTag(String($0.dropFirst(5))) })
        // The status pushed last stands everywhere.
        #expect(cli.run("schools --as u-maya --json --log phone.jsonl").stdout.contains(#""schoolId":"s-ucla","name":"UCLA","status":"offer_received""#))
    }

    @Test func aDevicesAttachmentReachesTheOtherDevice() throws {
        let cli = Self.family()
        #expect(Self.sync(cli, "phone.jsonl", as: "u-maya").status == 0)
        #expect(Self.sync(cli, "laptop.jsonl", as: "u-pat").status == 0)
        cli.write("scan.pdf", "%PDF-1.4 the athlete's transcript")
        let uploaded = cli.run(["upload-document", "--as", "u-maya", "--title", "Transcript", "--doc-type", "transcript", "--file", cli.directory + "/scan.pdf",
                                "--log", cli.directory + "/phone.jsonl"])
        #expect(uploaded.status == 0)
        let id = uploaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.hasSuffix("." + (try Self.tag(cli.directory + "/phone.jsonl"))), "\(id)")
        #expect(Self.sync(cli, "phone.jsonl", as: "u-maya").status == 0)
        #expect(Self.sync(cli, "laptop.jsonl", as: "u-pat").stdout.hasPrefix("pushed 0, pulled 1, refused 0\n"))
        let got = cli.run(["document", "get", id, "-o", cli.directory + "/got.pdf", "--as", "u-pat",
                           "--log", cli.directory + "/laptop.jsonl"])
        #expect(got.status == 0, "\(got.stderr)")
        #expect(try String(contentsOfFile: cli.directory + "/got.pdf", encoding: .utf8) == "%PDF-1.4 the athlete's transcript")
    }

    static func tag(_ log: String) throws -> String {
        try SyncState.read(log: log, fs: POSIXFileSystem())!.device
    }

    @Test func whatSyncRefusesIsNamed() throws {
        let cli = Self.family()
        let noRemote = cli.run(["sync", "--log", cli.directory + "/phone.jsonl", "--as", "u-maya"])
        #expect(noRemote.status == 2 && noRemote.stderr.contains("--remote"))
        let missing = cli.run(["sync", "--log", cli.directory + "/phone.jsonl", "--remote", "nothing.jsonl", "--as", "u-maya"])
        #expect(missing.status == 1 && missing.stderr.contains("no log at nothing.jsonl"), "\(missing.stderr)")
        let stranger = Self.sync(cli, "phone.jsonl", as: "u-nobody")
        #expect(stranger.status == 1 && stranger.stderr.contains("Unknown user u-nobody"), "\(stranger.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/phone.jsonl"), "nothing was cloned")
        // A log that was not cloned is not a device's store.
        let itself = cli.run(["sync", "--log", cli.directory + "/remote.jsonl", "--remote", "remote.jsonl", "--as", "u-maya"])
        #expect(itself.status == 1 && itself.stderr.contains("not with itself"), "\(itself.stderr)")
        try FileManager.default.copyItem(atPath: cli.directory + "/remote.jsonl", toPath: cli.directory + "/copy.jsonl")
        let notCloned = cli.run(["sync", "--log", cli.directory + "/copy.jsonl", "--remote", "remote.jsonl", "--as", "u-maya"])
        #expect(notCloned.status == 1 && notCloned.stderr.contains("was not made by a sync"), "\(notCloned.stderr)")
        let store = try CompassStore(path: cli.directory + "/remote.jsonl")
        #expect(throws: StoreError.self) { try store.sync(with: store, as: "u-maya") }
        // An erasure is made on the family's store: a device that erased is refused, unchanged.
        #expect(Self.sync(cli, "phone.jsonl", as: "u-pat").status == 0)
        #expect(cli.run(["add-school", "--as", "u-pat", "--name", "Before The Erasure", "--log", cli.directory + "/phone.jsonl"]).status == 0)
        #expect(cli.run(["erase", "--as", "u-pat", "--member", "u-leo", "--log", cli.directory + "/phone.jsonl"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/phone.jsonl"))
        let remoteBefore = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/remote.jsonl"))
        let erased = Self.sync(cli, "phone.jsonl", as: "u-pat")
        #expect(erased.status == 1 && erased.stderr.contains("erase on the family's store"), "\(erased.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/phone.jsonl")) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/remote.jsonl")) == remoteBefore, "nothing was pushed")
    }

    @Test func anErasureOnTheRemoteReachesEveryDevice() throws {
        let cli = Self.family()
        #expect(Self.sync(cli, "laptop.jsonl", as: "u-pat").status == 0)
        #expect(cli.run("erase --as u-pat --member u-leo --log remote.jsonl").status == 0)
        let synced = Self.sync(cli, "laptop.jsonl", as: "u-pat")
        #expect(synced.status == 0, "\(synced.stderr)")
        let laptop = try String(contentsOfFile: cli.directory + "/laptop.jsonl", encoding: .utf8)
        let remote = try String(contentsOfFile: cli.directory + "/remote.jsonl", encoding: .utf8)
        #expect(!laptop.contains("u-leo") && laptop == remote)
        // The erased member's own device is told, and keeps what it had (the remote gives it nothing).
        #expect(Self.sync(cli, "leo.jsonl", as: "u-leo").stderr.contains("Unknown user u-leo"))
    }
}
