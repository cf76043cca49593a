// maskd: the two ways `maskd format` formats what it reads: here, or by worker threads in input order.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import JSON

/// One thread: each block is formatted as it is read, into buffers written at every flush.
struct FormattingHere: LineSink {
    var formatting: LineFormatting

    mutating func lines(_ block: UnsafeBufferPointer<UInt8>, firstLine: Int, final: Bool) {
        formatting.lines(block, firstLine: firstLine, final: final)
    }

    mutating func longLine(_ number: Int) { formatting.longLine(number) }

    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) { formatting.copy(bytes) }

    mutating func flush() -> Bool {
        // Standard output first: a line's report never comes before the lines before it have been written.
        guard formatting.out.flush() else { return false }
        _ = formatting.err.flush()
        return true
    }

    var unwritten: Int { formatting.out.count + formatting.err.count }

    var failed: Int { formatting.failed }
}

/// `jobs` threads format blocks of lines while the reader reads on; blocks are written in input order. At most
/// `2 * jobs` blocks of at most `longestLine` bytes are held at once, so memory is bounded whatever the input.
struct FormattingInParallel: LineSink {
    private let pool: FormattingPool
    /// Blocks handed over and not yet written, oldest first.
    private var waiting: [FormattingPool.Job] = []
    private var head = 0
    /// What the reader produced itself (a long line's report and bytes) since the last block; it goes in order.
    private var here: LineFormatting
    private(set) var failed = 0
    private let limit: Int
    /// Blocks wait for their turn in `waiting`, at most `limit` of them: nothing more to write early.
    let unwritten = 0

    init(formatting: LineFormatting, perThread: [LineFormatting]) {
        // jansson seeds its hash function on first use; do that once here, before any worker uses it.
        _ = JSONValue.object(["seed": .int(0)]).serialized()
        pool = FormattingPool(perThread: perThread)
        here = formatting
        limit = 2 * perThread.count
    }

    mutating func lines(_ block: UnsafeBufferPointer<UInt8>, firstLine: Int, final: Bool) {
        keepOrder()
        while waiting.count - head >= limit { _ = writeOldest() }
        waiting.append(pool.submit(Array(block), firstLine: firstLine, final: final))
    }

    mutating func longLine(_ number: Int) { here.longLine(number) }

    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        here.copy(bytes)
        keepOrder()
    }

    /// Queues what the reader produced itself as a finished block, so it is written after the blocks before it.
    private mutating func keepOrder() {
        guard !here.out.isEmpty || !here.err.isEmpty || here.failed > 0 else { return }
        waiting.append(FormattingPool.Job(done: (here.out.take(), here.err.take(), here.failed)))
        here.failed = 0
    }

    mutating func flush() -> Bool {
        keepOrder()
        while head < waiting.count {
            if !writeOldest() { return false }
        }
        waiting.removeAll(keepingCapacity: true)
        head = 0
        return true
    }

    /// Waits for the oldest block and writes it. - Returns: false when standard output failed.
    private mutating func writeOldest() -> Bool {
        let job = waiting[head]
        waiting[head] = FormattingPool.Job.written
        head += 1
        if head > 64, head * 2 > waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
        let result = pool.wait(for: job)
        failed += result.failed
        let wrote = result.out.withUnsafeBytes { writeAll(1, $0) }
        if !result.err.isEmpty { _ = result.err.withUnsafeBytes { writeAll(2, $0) } }
        return wrote
    }
}

/// Worker threads, each with its own `LineFormatting`, taking blocks from one queue.
final class FormattingPool {
    /// A block to format, and once formatted its output, reports and failures.
    final class Job {
        let block: [UInt8]
        let firstLine: Int
        let final: Bool
        var done: (out: [UInt8], err: [UInt8], failed: Int)?

        init(_ block: [UInt8], firstLine: Int, final: Bool) {
            self.block = block
            self.firstLine = firstLine
            self.final = final
        }

        init(done: (out: [UInt8], err: [UInt8], failed: Int)) {
            block = []
            firstLine = 0
            final = false
            self.done = done
        }

        static let written = Job(done: ([], [], 0))
    }

    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var queue: [Job] = []
    private var queueHead = 0
    private var closing = false
    private var threads: [pthread_t] = []
    /// Each thread's own formatting (its own compiled mask), taken by the thread that starts.
    private var unclaimed: [LineFormatting]
    /// What formats a block here when no thread could be started.
    private let formatting: LineFormatting

    init(perThread: [LineFormatting]) {
        formatting = perThread[0]
        unclaimed = perThread
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
        for _ in perThread {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            guard
                pthread_create(
                    &thread, nil,
                    { context in
                        let pool = Unmanaged<FormattingPool>.fromOpaque(context!).takeRetainedValue()
                        pool.work()
                        return nil
                    }, context) == 0
            else {
                Unmanaged<FormattingPool>.fromOpaque(context).release()
                continue
            }
            threads.append(thread)
        }
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Queues a block; with no worker thread (none could be started) it is formatted here.
    func submit(_ block: [UInt8], firstLine: Int, final: Bool) -> Job {
        let job = Job(block, firstLine: firstLine, final: final)
        if threads.isEmpty {
            var formatting = self.formatting
            job.done = Self.format(job, with: &formatting)
            return job
        }
        pthread_mutex_lock(&mutex)
        queue.append(job)
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
        return job
    }

    /// The job's result, once a worker has it.
    func wait(for job: Job) -> (out: [UInt8], err: [UInt8], failed: Int) {
        pthread_mutex_lock(&mutex)
        while job.done == nil { pthread_cond_wait(&changed, &mutex) }
        let done = job.done!
        job.done = ([], [], 0)
        pthread_mutex_unlock(&mutex)
        return done
    }

    /// Stops the workers once the queue is empty (the process is about to exit; they hold nothing).
    func close() {
        pthread_mutex_lock(&mutex)
        closing = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    private func work() {
        pthread_mutex_lock(&mutex)
        var formatting = unclaimed.popLast() ?? self.formatting
        pthread_mutex_unlock(&mutex)
        while true {
            pthread_mutex_lock(&mutex)
            while queueHead == queue.count, !closing { pthread_cond_wait(&changed, &mutex) }
            if queueHead == queue.count {
                pthread_mutex_unlock(&mutex)
                return
            }
            let job = queue[queueHead]
            queueHead += 1
            if queueHead > 64, queueHead * 2 > queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            pthread_mutex_unlock(&mutex)
            let done = Self.format(job, with: &formatting)
            pthread_mutex_lock(&mutex)
            job.done = done
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)
        }
    }

    private static func format(_ job: Job, with formatting: inout LineFormatting)
        -> (out: [UInt8], err: [UInt8], failed: Int)
    {
        formatting.failed = 0
        job.block.withUnsafeBufferPointer { formatting.lines($0, firstLine: job.firstLine, final: job.final) }
        return (formatting.out.take(), formatting.err.take(), formatting.failed)
    }
}
