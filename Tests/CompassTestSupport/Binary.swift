import Foundation

/// Runs the built `compass` executable as a separate process (end-to-end tests).
package enum Binary {
    /// The package's root folder.
    package static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The `compass` executable built beside the test bundle.
    package static let path: String = {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        for folder in candidates {
            let binary = folder.appendingPathComponent("compass").path
            if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        }
        return packageRoot + "/.build/debug/compass"
    }()

    package struct Output {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// Runs any program and returns what it wrote on stdout (stderr is dropped).
    package static func tool(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs any program with its stdout and stderr in one pipe (both in `stdout` and
    /// `stderr`, in the order written), and its exit status.
    package static func runProgram(_ path: String, _ arguments: [String], environment: [String: String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return Output(status: process.terminationStatus, stdout: text, stderr: text)
    }

    /// Runs `compass ARGS` and waits for it.
    package static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["COMPASS_LOG"] = nil
        env["COMPASS_USER"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? packageRoot)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
