// The JSON layer: where jansson's memory comes from while a message is parsed or written; see ARCHITECTURE.md.

import CJansson
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body`, in which jansson trees for one small message are made and used, with jansson's allocations on this
/// thread taken from the thread's region, a block reused for every message.
///
/// A message's trees are a few hundred small blocks (a node, a key, a hash table each), made and freed within one
/// parse or one write: from the region they cost a pointer bump and no `free`, and the trees need not be walked to
/// be freed, since the region is reused whole once the outermost `body` returns. `body` hands each tree it is done
/// with to `release`, which frees it only when some of the scope's blocks did not fit in the region (and so came
/// from `malloc`). Trees must not outlive `body`. Without `inRegion` (a large message, whose trees would not fit),
/// jansson allocates with `malloc` as usual and `release` is `json_decref`.
func withJanssonRegion<Result>(
    _ inRegion: Bool, _ body: (_ release: (UnsafeMutablePointer<json_t>) -> Void) throws -> Result
) rethrows -> Result {
    guard inRegion else { return try body { json_decref($0) } }
    janssonAllocatorInstalled.touch()
    let region = JanssonRegion.current()
    if region.pointee.depth == 0 { recentRegion.store(region, ordering: .releasing) }
    region.pointee.depth += 1
    defer {
        region.pointee.depth -= 1
        if region.pointee.depth == 0 {
            region.pointee.used = 0
            region.pointee.overflowed = false
        }
    }
    return try body { root in if region.pointee.overflowed { json_decref(root) } }
}

/// Frees memory that jansson allocated (the text of `json_dumps`), wherever it came from.
func janssonFree(_ pointer: UnsafeMutableRawPointer?) {
    JanssonRegion.free(pointer)
}

/// The region of the thread that last opened an outermost scope. jansson's allocator, which is told nothing but a
/// size, finds it here with one load and a comparison of threads (the daemon has one thread that parses and writes),
/// not through `pthread_getspecific` and the key's lazy initialisation: a keystroke's messages allocate about 180
/// blocks. A region's header is never freed (its block is, when its thread ends, and its capacity becomes 0), so the
/// header read here is always there; a thread that reuses a finished thread's id finds that header empty, out of
/// scope, and allocates from `malloc`, until its own first scope puts its region here.
private let recentRegion = Atomic<UnsafeMutablePointer<JanssonRegion>?>(nil)

/// One thread's region: `capacity` bytes from `base`, the first `used` of them handed out in the current scope.
private struct JanssonRegion {
    /// The thread whose region this is.
    let owner: pthread_t
    var base: UnsafeMutableRawPointer?
    var capacity: Int
    var used = 0
    /// How many scopes (``withJanssonRegion(_:_:)``) are open on the thread; blocks come from the region while any is.
    var depth = 0
    /// Whether a block of the open scope came from `malloc`, the region being full.
    var overflowed = false

    /// Enough for the trees of any message up to several KB (a keystroke's are a few KB); more comes from `malloc`.
    static let capacity = 128 << 10

    /// Each thread's region, made when it first parses or writes a message and freed when it ends.
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            // The header stays (``recentRegion`` may point at it); the block goes.
            guard let region = pointer?.assumingMemoryBound(to: JanssonRegion.self) else { return }
            Glibc.free(region.pointee.base)
            region.pointee.base = nil
            region.pointee.capacity = 0
        }
        return key
    }()

    /// The calling thread's region, made on first use.
    static func current() -> UnsafeMutablePointer<JanssonRegion> {
        if let existing = pthread_getspecific(key) { return existing.assumingMemoryBound(to: JanssonRegion.self) }
        let region = UnsafeMutablePointer<JanssonRegion>.allocate(capacity: 1)
        region.initialize(to: JanssonRegion(owner: pthread_self(), base: malloc(capacity)!, capacity: capacity))
        pthread_setspecific(key, region)
        return region
    }

    /// jansson's `malloc`: from the thread's region while a scope is open there, else from `malloc`.
    static func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        guard let region = mine(), region.pointee.depth > 0, let base = region.pointee.base else { return malloc(size) }
        // 16-byte blocks, as malloc aligns them.
        let rounded = (size + 15) & ~15
        guard region.pointee.used + rounded <= region.pointee.capacity else {
            region.pointee.overflowed = true
            return malloc(size)
        }
        let block = base + region.pointee.used
        region.pointee.used += rounded
        return block
    }

    /// jansson's `free`: a block of the thread's region is left for the region's reuse; any other goes to `free`.
    /// (A block is freed on the thread that made it: a message's trees stay within one call.)
    static func free(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        if let region = mine(), let base = region.pointee.base, pointer >= base,
            pointer < base + region.pointee.capacity
        {
            return
        }
        Glibc.free(pointer)
    }

    /// The calling thread's region, if it has one: the recent one when it is the caller's.
    @inline(__always)
    private static func mine() -> UnsafeMutablePointer<JanssonRegion>? {
        if let recent = recentRegion.load(ordering: .acquiring),
            pthread_equal(recent.pointee.owner, pthread_self()) != 0
        {
            return recent
        }
        return pthread_getspecific(key)?.assumingMemoryBound(to: JanssonRegion.self)
    }
}

/// Points jansson's allocations at the regions, once; blocks it made before come from `malloc` and go back there.
private let janssonAllocatorInstalled = JanssonAllocator()

private struct JanssonAllocator {
    init() {
        json_set_alloc_funcs({ JanssonRegion.allocate($0) }, { JanssonRegion.free($0) })
    }

    /// Makes sure the allocator is installed (reading the global runs its initialiser once).
    func touch() {}
}
