// maskd-bench: what the bench adds to the shared client (Tests/MaskdClient) for the servers it measures.
import Foundation
import JSON
import MaskdClient

extension DaemonProcess {
    /// `initialize` then `initialized`; returns the initialize result.
    @discardableResult
    func initialize() throws -> JSONValue {
        let result = try request("initialize", Messages.initializeParams())
        try notify("initialized", [:])
        return result
    }

    /// `shutdown`, `exit`, and a wait for the process to end (killed after `timeout`), which must exit with 0.
    func stop() throws {
        let code = try shutDown()
        if code != 0 { throw BenchFailure("\(name): exited with status \(code) after shutdown and exit") }
    }

    /// The peak resident set size so far (`VmHWM`), in bytes.
    func peakRSS() throws -> Double { Double(try statusKiB("VmHWM")) * 1024 }

    /// The resident set size now (`VmRSS`), in bytes.
    func currentRSS() throws -> Double { Double(try statusKiB("VmRSS")) * 1024 }

    /// Writes `bytes` from another thread while the caller reads the answers (pipelining: with
    /// both pipes full, writing and reading on one thread would deadlock). Call `wait()` on the
    /// result to learn how the writing went.
    func writeInBackground(_ bytes: [UInt8]) -> BackgroundWrite {
        let job = BackgroundWrite()
        let thread = Thread { [self] in
            do { try self.write(bytes) } catch { job.failure = error }
            job.done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        return job
    }
}

/// The outcome of `DaemonProcess.writeInBackground`.
final class BackgroundWrite: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var failure: Error?

    /// Waits for the writing to end; rethrows its failure.
    func wait() throws {
        done.wait()
        if let failure { throw failure }
    }
}
