import Foundation
import Testing
import CompassTestSupport
import CompassCore
@testable import CompassStore

/// ARCHITECTURE's promise for sync, attacked: every file operation of a device's sync failed,
/// cut short, killed or power-cut leaves the device's log as it was or as the remote's stream,
/// whole; a clean sync afterwards converges, and no line of the device is pushed twice or lost.
@Suite struct SyncFaultTests {
    /// A remote (the README's sample family), a phone cloned from it with two lines of its own
    /// (one with an attachment), and one line on the remote the phone has not seen.
    static func template() throws -> (folder: String, phoneLines: [String]) {
        let folder = NSTemporaryDirectory() + "sync-faults-" + UUID().uuidString
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/remote", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: folder + "/phone", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Binary.packageRoot + "/events-samples/family.jsonl", toPath: folder + "/remote/family.jsonl")
        try fm.copyItem(atPath: Binary.packageRoot + "/events-samples/family.jsonl.attachments", toPath: folder + "/remote/family.jsonl.attachments")
        let remote = try CompassStore(path: folder + "/remote/family.jsonl", createIfMissing: false)
        let phone = try CompassStore(path: folder + "/phone/family.jsonl", configuration: .init(snapshots: nil))
        _ = try phone.sync(with: remote, as: "u-maya")
        try phone.append(.logInteraction(LogInteraction(type: .email, direction: .outbound, schoolId: "s-ucla", subject: "From the phone")),
                         as: "u-maya", idempotencyKey: "phone-1", files: [.bytes(name: "reel.txt", Array("phone bytes".utf8))])
        try phone.append(.addSchool(AddSchool(name: "Phone School")), as: "u-maya", idempotencyKey: "phone-2")
        try remote.append(.changeStatus(ChangeStatus(schoolId: "s-ucla", newStatus: "committed")), as: "u-pat", idempotencyKey: "remote-1")
        return (folder, ["phone-1", "phone-2"])
    }

    static func copy(_ template: String) throws -> String {
        let folder = NSTemporaryDirectory() + "sync-fault-" + UUID().uuidString
        try FileManager.default.copyItem(atPath: template, toPath: folder)
        return folder
    }

    static func ids(in bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let range = line.range(of: #""id":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test func everyStepOfASyncFailedOrCrashedLeavesTheDeviceWholeAndASyncAfterConverges() throws {
        let (template, phoneLines) = try Self.template()
        defer { try? FileManager.default.removeItem(atPath: template) }
        let oldPhone = try #require(try POSIXFileSystem().readFile(template + "/phone/family.jsonl"))
        var faults = 0
        for fault in FaultyFileSystem.Fault.allCases {
            var step = 1
            while true {
                let folder = try Self.copy(template)
                defer { try? FileManager.default.removeItem(atPath: folder) }
                let remote = try CompassStore(path: folder + "/remote/family.jsonl", createIfMissing: false)
                let fs = FaultyFileSystem(root: folder + "/phone", failAt: step, fault: fault)
                let phone = try CompassStore(path: folder + "/phone/family.jsonl", configuration: .over(fs))
                let result = Result { () throws(StoreError) in try phone.sync(with: remote, as: "u-maya") }
                #expect(fs.openDescriptors.isEmpty && fs.strayCloses.isEmpty, "descriptors: \(fault) at \(step)")
                guard fs.hitFault else {
                    if case .failure(let error) = result { Issue.record("a clean sync failed: \(error)") }
                    break
                }
                faults += 1
                if fault == .powerLoss { fs.recoverFromPowerLoss() }
                let context = "\(fault) at operation \(step): \(fs.injected ?? "")"
                let canonical = try remote.familyStream(of: "u-maya").lines
                let now = try #require(try POSIXFileSystem().readFile(folder + "/phone/family.jsonl"), "\(context): the log is gone")
                #expect(now == oldPhone || now == canonical, "\(context): the device's log is neither its old one nor the remote's")
                // A clean sync converges, with each of the phone's lines on the remote once.
                let again = try CompassStore(path: folder + "/phone/family.jsonl", configuration: .init(snapshots: nil))
                let report = try again.sync(with: remote, as: "u-maya")
                #expect(report.refused.isEmpty, "\(context): \(report.refused)")
                let remoteIds = Self.ids(in: try remote.familyStream(of: "u-maya").lines)
                for id in phoneLines + ["remote-1"] { #expect(remoteIds.filter { $0 == id }.count == 1, "\(context): \(id) on the remote") }
                #expect(try POSIXFileSystem().readFile(folder + "/phone/family.jsonl") == (try remote.familyStream(of: "u-maya").lines), "\(context)")
                #expect(try again.verify().ok, "\(context)")
                step += 1
            }
        }
        #expect(faults > 20, "only \(faults) faults were injected")
    }

    /// A store whose erase or sync failed after taking the writers' lock (a failed `stat`, say)
    /// does not keep holding it: another writer appends at once, while the store lives on.
    @Test func aWriterWhoseEraseOrSyncFailedHoldsNoLock() throws {
        let (template, _) = try Self.template()
        defer { try? FileManager.default.removeItem(atPath: template) }
        var failedAfterLocking = 0
        for (step, erasing) in (1...12).flatMap({ step in [(step, true), (step, false)] }) {
            let folder = try Self.copy(template)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let remote = try CompassStore(path: folder + "/remote/family.jsonl", createIfMissing: false)
            let fs = FaultyFileSystem(root: folder + "/phone", failAt: step, fault: .error)
            let phone = try CompassStore(path: folder + "/phone/family.jsonl", configuration: .over(fs))
            let outcome = erasing ? Result { () throws(StoreError) in _ = try phone.erase(member: "u-leo", as: "u-pat") }
                : Result { () throws(StoreError) in _ = try phone.sync(with: remote, as: "u-maya") }
            if case .failure = outcome { failedAfterLocking += 1 }
            // Another writer, in this process, while `phone` is alive.
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var appended = false
            let path = folder + "/phone/family.jsonl"
            Thread.detachNewThread {
                appended = (try? CompassStore(path: path, configuration: .init(snapshots: nil))
                    .append(.addSchool(AddSchool(name: "After \(step)")), as: "u-pat")) != nil
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 20) == .success && appended, "a writer waited for a lock the failed store kept (fault at \(step))")
            withExtendedLifetime(phone) {}
        }
        #expect(failedAfterLocking > 3)
    }
}
