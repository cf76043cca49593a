/// What a reading refused (`rejected`) and cut (`overflow`), each in text order, with the rest of a
/// long text left unsorted.
///
/// Once reading has stopped (`Program.isFull`) a program only sorts the characters still unread: those
/// fitting some slot are overflow, the others rejected. That sorting is left to `sorted()`, which the
/// caller runs on the one outcome it keeps, so a paste read by several programs (each `oneOf`
/// alternative, the broad card mask and then the brand's) is sorted once, not once per program.
///
/// A keystroke almost never cuts anything, and outcomes carrying a `Cuts` are copied on every key,
/// so everything lives in one box that is absent (nil) while nothing was cut: copying an empty
/// `Cuts` retains nothing.
struct Cuts<U: FieldUnit> {
    private final class Storage {
        /// Refused while reading; the unread rest's refused characters follow them.
        var rejectedRead = ""
        /// Cut before and while reading; the unread rest's cut characters follow them, then `overflowAfter`.
        var overflowRead = ""
        /// The characters left unread, and the program that read up to them (whose slots sort them).
        var unread: ArraySlice<U> = []
        var sorter: Program? = nil
        /// Cut after the unread rest: entered characters that no longer fit once the rest was left.
        var overflowAfter = ""

        func copy() -> Storage {
            let other = Storage()
            other.rejectedRead = rejectedRead
            other.overflowRead = overflowRead
            other.unread = unread
            other.sorter = sorter
            other.overflowAfter = overflowAfter
            return other
        }
    }

    private var storage: Storage?

    /// Nothing refused or cut.
    @inline(__always)
    init() {}

    init(rejected: String = "", overflow: String) {
        guard !rejected.isEmpty || !overflow.isEmpty else { return }
        let storage = Storage()
        storage.rejectedRead = rejected
        storage.overflowRead = overflow
        self.storage = storage
    }

    /// What a reading refused and cut, as units in text order. Nearly every keystroke refuses and cuts
    /// nothing: then no string and no box is made.
    @inline(__always)
    init(rejectedUnits rejected: [U], overflowUnits overflow: [U]) {
        if rejected.isEmpty && overflow.isEmpty {
            self.init()
        } else {
            self.init(rejected: U.string(rejected), overflow: U.string(overflow))
        }
    }

    /// Nothing was refused or cut, and nothing left unread.
    var isEmpty: Bool { storage == nil }

    /// The box, made or copied so that this value alone holds it (the values stay independent).
    private mutating func unique() -> Storage {
        if storage == nil {
            storage = Storage()
        } else if !isKnownUniquelyReferenced(&storage!) {
            storage = storage!.copy()
        }
        return storage!
    }

    /// Characters `program` leaves unread once reading has stopped; they are sorted by its slots.
    /// - Precondition: no rest is pending already (a reading stops once).
    mutating func leave(_ rest: ArraySlice<U>, for program: Program) {
        precondition(storage?.sorter == nil, "a reading leaves one rest")
        guard !rest.isEmpty else { return }
        let storage = unique()
        storage.unread = rest
        storage.sorter = program
    }

    /// Appends `overflow` at the end of what was cut.
    mutating func cut(_ overflow: String) {
        guard !overflow.isEmpty else { return }
        let storage = unique()
        if storage.sorter == nil { storage.overflowRead += overflow } else { storage.overflowAfter += overflow }
    }

    /// Appends `later`, what a reading after this one refused and cut.
    mutating func append(_ later: Cuts<U>) {
        guard let other = later.storage else { return }
        if !other.rejectedRead.isEmpty { unique().rejectedRead += other.rejectedRead }
        cut(other.overflowRead)
        if let program = other.sorter { leave(other.unread, for: program) }
        cut(other.overflowAfter)
    }

    /// `rejected` and `overflow` in full, the unread rest sorted in one pass.
    func sorted() -> (rejected: String, overflow: String) {
        guard let storage else { return ("", "") }
        guard let sorter = storage.sorter else { return (storage.rejectedRead, storage.overflowRead) }
        let rest = sorter.sortUnread(storage.unread)
        return (storage.rejectedRead + rest.rejected, storage.overflowRead + rest.overflow + storage.overflowAfter)
    }
}
