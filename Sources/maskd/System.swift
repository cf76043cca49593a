// maskd: the few system calls the executable needs, straight from the C library (no Foundation, so no ICU to
// load at startup).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes all of `text` to `fd`, retrying after interruptions. - Returns: false when the descriptor failed.
@discardableResult
func writeAll(_ fd: Int32, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
}

/// Writes all of `bytes` to `fd`, retrying after interruptions. - Returns: false when the descriptor failed.
@discardableResult
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let count = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if count > 0 {
            offset += count
        } else if count < 0, errno == EINTR {
            continue
        } else {
            return false
        }
    }
    return true
}

/// Opens `path` for appending, creating it when it does not exist. - Returns: the descriptor, or nil.
func openForAppending(_ path: String) -> Int32? {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    return fd >= 0 ? fd : nil
}

/// The bytes of the regular file at `path`, at most `limit` + 1 of them (so a caller can tell a file over its
/// limit); nil when there is no such file or it cannot be read.
func readRegularFile(_ path: String, limit: Int) -> [UInt8]? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while bytes.count <= limit {
        let count = chunk.withUnsafeMutableBytes { readDescriptor(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { return nil }
        if count == 0 { break }
        bytes += chunk[..<count]
    }
    return bytes
}

/// The path of the running executable (`/proc/self/exe` resolved), or nil when it cannot be read.
func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Whether `path` names a file this process may execute.
func isExecutableFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    return access(path, X_OK) == 0
}

/// A child process with pipes to its standard input and output; its standard error is this process's.
final class ChildProcess {
    let pid: pid_t
    /// The write end of the child's standard input.
    private(set) var input: Int32
    /// The read end of the child's standard output.
    let output: Int32

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable` with `arguments` (not counting the program name, which is `executable`).
    /// - Throws: `SpawnError` when a pipe or the spawn fails.
    init(executable: String, arguments: [String]) throws {
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { throw SpawnError(description: "pipe failed: \(ChildProcess.errnoText())") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            throw SpawnError(description: "pipe failed: \(ChildProcess.errnoText())")
        }
        // The parent's ends must not leak into the child.
        for fd in [toChild[1], fromChild[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addclose(&actions, toChild[0])
        posix_spawn_file_actions_addclose(&actions, fromChild[1])

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = (argv + [nil]).withUnsafeBufferPointer { pointers in
            posix_spawn(&pid, executable, &actions, nil, UnsafeMutablePointer(mutating: pointers.baseAddress!), environ)
        }
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        input = toChild[1]
        output = fromChild[0]
    }

    deinit {
        if input >= 0 { close(input) }
        close(output)
    }

    /// Writes all of `bytes` to the child's standard input. - Returns: false when the child closed it.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        guard input >= 0 else { return false }
        return bytes.withUnsafeBytes { writeAll(input, $0) }
    }

    /// Reads what the child has written, waiting for at least one byte. - Returns: empty at the end of its output.
    func read() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { readDescriptor(output, $0.baseAddress, $0.count) }
            if count >= 0 { return Array(buffer[..<count]) }
            if errno != EINTR { return [] }
        }
    }

    /// Closes the child's standard input: the end of its input.
    func closeInput() {
        guard input >= 0 else { return }
        close(input)
        input = -1
    }

    /// Waits for the child to end. - Returns: its exit code, or 128 plus the signal that ended it.
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Calls read(2); a method of `ChildProcess` would otherwise hide it.
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

extension String {
    /// The string cut or padded with spaces to `length` characters.
    func padded(to length: Int) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: " ", count: length - count)
    }
}

/// The processors online, at least 1: the default number of threads for `maskd format`.
func availableCores() -> Int {
    max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}
