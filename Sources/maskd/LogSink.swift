// maskd: the log's destination, written without ever blocking the daemon.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes log lines to a descriptor that may never be read (a client that does not read the daemon's stderr):
/// writes never block. What the descriptor does not take waits in a bounded buffer; past it, whole lines are dropped
/// and counted, and the count is written once the descriptor takes lines again.
final class LogSink {
    /// The most bytes kept waiting for the descriptor.
    static let bufferLimit = 64 << 10

    private let fd: Int32
    /// For a socket: written with `MSG_DONTWAIT`, leaving its flags to whoever shares it.
    private let isSocket: Bool
    private var waiting: [UInt8] = []
    private var dropped = 0

    /// Lines dropped so far because the descriptor took nothing and the buffer was full.
    var droppedLines: Int { dropped }

    /// A sink writing to `fd` (stderr, or a log file). A pipe or terminal is opened again through `/proc/self/fd`,
    /// non-blocking, so the flag does not reach the other processes that share the descriptor (the editor's stderr).
    init(fd: Int32) {
        var info = stat()
        let kind = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
        isSocket = kind == S_IFSOCK
        if kind == S_IFIFO || kind == S_IFCHR {
            let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if own >= 0 {
                self.fd = own
                return
            }
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        }
        self.fd = fd
    }

    /// Writes `line` and a line break, or keeps it to write later, or drops it when too much is waiting.
    func write(line: String) {
        flush()
        if dropped > 0, waiting.isEmpty {
            let note = "[warn] maskd: \(dropped) log lines dropped: the log's reader took nothing\n"
            dropped = 0
            waiting.append(contentsOf: note.utf8)
            flush()
        }
        let bytes = line.utf8.count + 1
        guard waiting.count + bytes <= LogSink.bufferLimit else {
            dropped += 1
            return
        }
        waiting.append(contentsOf: line.utf8)
        waiting.append(0x0A)
        flush()
    }

    /// Writes what is waiting, as far as the descriptor takes it without blocking.
    func flush() {
        var written = 0
        waiting.withUnsafeBytes { bytes in
            while written < bytes.count {
                let base = bytes.baseAddress! + written
                let count =
                    isSocket
                    ? send(fd, base, bytes.count - written, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                    : writeDescriptor(fd, base, bytes.count - written)
                if count > 0 {
                    written += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    // EAGAIN: full for now. Any other error: the log is gone; keep the buffer bounded all the same.
                    break
                }
            }
        }
        if written > 0 { waiting.removeFirst(written) }
    }
}

/// `write(2)`, under a name the sink's own `write(line:)` does not hide.
private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
