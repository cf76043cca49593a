// maskd-bench: row 7, bulk formatting: `maskd format` over a file of lines as a whole process, against a
// phonenumbers script formatting the same phone numbers line by line.
import Foundation
import Glibc
import JSON
import MaskdClient

enum BulkBench {
    struct Outcome {
        /// Lines per second, one sample per run (start of the process to its exit).
        var rates: Samples
        /// The largest peak RSS of the runs, in bytes.
        var peakRSS: Double
        /// The first line written, to show what was made of the first line read.
        var firstLine: String
    }

    /// The input files, written once into a temporary directory.
    struct Inputs {
        let directory: String
        let cards: String
        let phones: String
        let lines: Int

        /// `lines` card numbers (Visa, Mastercard, Amex; valid check digits) and as many US phone numbers, each
        /// plain or with spaces or dashes as people write them; the first of each is `4111111111111111` and
        /// `2015550123`.
        init(lines: Int) throws {
            var template = Array("\(NSTemporaryDirectory())/maskd-bench-bulk-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw BenchFailure("bulk: mkdtemp failed") }
            directory = String(cString: made)
            cards = directory + "/cards.txt"
            phones = directory + "/phones.txt"
            self.lines = lines
            var random = DigitPicker(seed: 17)
            var cardText = "4111111111111111\n", phoneText = "2015550123\n"
            for _ in 1..<lines {
                cardText += Self.card(&random) + "\n"
                phoneText += Self.phone(&random) + "\n"
            }
            try cardText.write(toFile: cards, atomically: false, encoding: .utf8)
            try phoneText.write(toFile: phones, atomically: false, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(atPath: directory) }

        private static func card(_ random: inout DigitPicker) -> String {
            let brands: [(prefix: String, length: Int, groups: [Int])] =
                [("4", 16, [4, 4, 4, 4]), ("51", 16, [4, 4, 4, 4]), ("37", 15, [4, 6, 5])]
            let (prefix, length, groups) = brands[random.below(brands.count)]
            var digits = prefix.map { Int(String($0))! }
            while digits.count < length - 1 { digits.append(random.below(10)) }
            // The Luhn check digit: double every second digit from the right, counting the check digit.
            var sum = 0
            for (i, d) in digits.reversed().enumerated() { sum += i % 2 == 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d }
            digits.append((10 - sum % 10) % 10)
            return written(digits.map(String.init).joined(), groups: groups, random: &random)
        }

        private static func phone(_ random: inout DigitPicker) -> String {
            var digits = "\(2 + random.below(8))\(random.below(10))\(random.below(10))"
            digits += "\(2 + random.below(8))"
            for _ in 0..<6 { digits += "\(random.below(10))" }
            return written(digits, groups: [3, 3, 4], random: &random)
        }

        /// `digits` as they come, or grouped with spaces or dashes.
        private static func written(_ digits: String, groups: [Int], random: inout DigitPicker) -> String {
            let separator = ["", " ", "-"][random.below(3)]
            var parts: [String] = [], rest = Substring(digits)
            for g in groups {
                parts.append(String(rest.prefix(g)))
                rest = rest.dropFirst(g)
            }
            return parts.joined(separator: separator)
        }
    }

    /// Runs `executable arguments < input > output` `runs` times after one untimed run.
    static func run(
        _ executable: String, _ arguments: [String], input: String, lines: Int, runs: Int,
        timeout: Double
    ) throws -> Outcome {
        let output = input + ".out"
        var rates = Samples(), peak = 0.0
        for run in 0...runs {
            let (ns, rss) = try spawnAndWait(executable, arguments, input: input, output: output, timeout: timeout)
            if run > 0 { rates.add(Double(lines) / (Double(ns) / 1e9)) }
            peak = max(peak, rss)
        }
        let written = try String(contentsOfFile: output, encoding: .utf8)
        let outLines = written.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard outLines.count == lines else {
            throw BenchFailure("bulk: \(executable) wrote \(outLines.count) lines for \(lines)")
        }
        return Outcome(rates: rates, peakRSS: peak, firstLine: String(outLines.first ?? ""))
    }

    /// Starts the process with its standard input and output on files and waits for it.
    /// - Returns: the nanoseconds from spawning it to its exit, and its peak RSS in bytes.
    private static func spawnAndWait(
        _ executable: String, _ arguments: [String], input: String, output: String,
        timeout: Double
    ) throws -> (UInt64, Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = nowNS()
        let status = (argv + [nil]).withUnsafeBufferPointer { pointers in
            posix_spawn(&pid, executable, &actions, nil, UnsafeMutablePointer(mutating: pointers.baseAddress!), environ)
        }
        guard status == 0 else {
            throw BenchFailure("bulk: cannot start \(executable): \(String(cString: strerror(status)))")
        }
        var exitStatus: Int32 = 0
        let deadline = start + UInt64(timeout * 1e9)
        // The peak RSS is read from /proc while the process runs: wait4's ru_maxrss would count this process's
        // memory too, which a spawned child shares until its exec.
        var peak = 0.0
        while true {
            if waitpid(pid, &exitStatus, WNOHANG) == pid { break }
            if let rss = peakRSS(of: pid) { peak = max(peak, rss) }
            if nowNS() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &exitStatus, 0)
                throw BenchFailure("bulk: \(executable) did not end within \(fixed(timeout, 0)) s")
            }
            usleep(1_000)
        }
        let ns = nowNS() - start
        guard exitStatus & 0x7F == 0, (exitStatus >> 8) & 0xFF == 0 else {
            throw BenchFailure(
                "bulk: \(executable) \(arguments.joined(separator: " ")) ended with status \(exitStatus)")
        }
        return (ns, peak)
    }

    /// `VmHWM` of a running process, in bytes; nil once it has ended.
    private static func peakRSS(of pid: pid_t) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}

/// Knuth's MMIX linear congruential generator: enough to pick digits, and the same lines on every run.
struct DigitPicker {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in 0..<n, from the generator's high bits (its low bits repeat quickly).
    mutating func below(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(n))
    }
}
