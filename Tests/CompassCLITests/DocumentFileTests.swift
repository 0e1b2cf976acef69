import CompassCore
import CompassTestSupport
import Foundation
import Testing

/// SPEC §2 v3: `upload-document --file` stores the bytes as attachments are stored and records
/// the file's name, size and SHA-256; the bytes are then retrievable, checked by `verify`,
/// carried by import and export, and removed by erasure.
@Suite struct DocumentFileTests {
    static func family() -> CLIHarness {
        let cli = CLIHarness()
        cli.seedFamily()
        cli.write("transcript.pdf", "MAYA-TRANSCRIPT-BYTES")
        return cli
    }

    @Test func anUploadedFileIsStoredRecordedAndRetrievable() throws {
        let cli = Self.family()
        #expect(cli.run("upload-document --as u-maya --title Transcript --doc-type transcript --file transcript.pdf").stdout == "d-1\n")
        let hash = SHA256.hex(Array("MAYA-TRANSCRIPT-BYTES".utf8))
        #expect(cli.logText.contains(#""fileName":"transcript.pdf","sizeBytes":21,"sha256":"\#(hash)"}"#))
        #expect(FileManager.default.fileExists(atPath: cli.logPath + ".attachments/" + hash))
        try FileManager.default.createDirectory(atPath: cli.directory + "/out", withIntermediateDirectories: true)
        #expect(cli.run("document get d-1 --as u-pat -o out/copy.pdf").status == 0)
        #expect(try String(contentsOfFile: cli.directory + "/out/copy.pdf", encoding: .utf8) == "MAYA-TRANSCRIPT-BYTES")
        // Visibility as §3.4: another athlete does not see it.
        #expect(cli.run("document get d-1 --as u-leo -o out/leo.pdf").stderr.hasPrefix("error: Document not found\n"))
        #expect(cli.run("verify").stdout.contains("attachments: 1 checked, all whole"))
        // Bytes changed under the log: verify names the document.
        cli.write("events.jsonl.attachments/" + hash, "tampered")
        let corrupt = cli.run("verify")
        #expect(corrupt.status == 1 && corrupt.stdout.contains("d-1 transcript.pdf: does not match its hash"), "\(corrupt.stdout)")
        #expect(cli.run("document get d-1 --as u-pat -o out/again.pdf").status == 1)
    }

    @Test func aDocumentWithoutItsFileHasNoBytesAndADirectoryIsNotAFile() {
        let cli = Self.family()
        #expect(cli.run("upload-document --as u-maya --title Resume --doc-type resume").status == 0)
        #expect(cli.run("document get d-1 --as u-pat").stderr == "error: d-1 has no stored bytes (it was recorded without --file)\n")
        let before = cli.logBytes
        #expect(cli.run("upload-document --as u-maya --title X --doc-type resume --file .").status == 1)
        #expect(cli.logBytes == before)
    }

    @Test func erasureRemovesTheDocumentsBytesAndImportNeedsThem() throws {
        let cli = Self.family()
        #expect(cli.run("upload-document --as u-maya --title Transcript --doc-type transcript --file transcript.pdf").status == 0)
        let hash = SHA256.hex(Array("MAYA-TRANSCRIPT-BYTES".utf8))
        // Import: a document naming bytes the store does not hold for the family is refused.
        cli.write("other.jsonl", #"{"type":"DocumentUploaded","actor":"u-leo","data":{"documentId":"d-9","title":"T","docType":"resume","sizeBytes":3,"sha256":"\#(String(repeating: "cd", count: 32))"}}"# + "\n")
        #expect(cli.run("import other.jsonl").stderr.contains("is not in this family's store"))
        // …and one naming the family's own bytes is taken.
        cli.write("own.jsonl", #"{"type":"DocumentUploaded","actor":"u-leo","data":{"documentId":"d-8","title":"T","docType":"resume","sizeBytes":21,"sha256":"\#(hash)"}}"# + "\n")
        #expect(cli.run("import own.jsonl").status == 0)
        #expect(cli.run("erase --as u-pat --member u-maya").status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.logPath + ".attachments/" + hash), "u-leo's document still names the bytes")
        #expect(cli.run("erase --as u-pat --member u-leo").status == 0)
        #expect(!FileManager.default.fileExists(atPath: cli.logPath + ".attachments/" + hash))
        #expect(cli.run("verify").status == 0)
    }
}
