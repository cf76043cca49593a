/// What a reading refused (`rejected`) and cut (`overflow`), each in text order, with the rest of a
/// long text left unsorted.
///
/// Once reading has stopped (`Program.isFull`) a program only sorts the characters still unread: those
/// fitting some slot are overflow, the others rejected. That sorting is left to `sorted()`, which the
/// caller runs on the one outcome it keeps, so a paste read by several programs (each `oneOf`
/// alternative, the broad card mask and then the brand's) is sorted once, not once per program.
struct Cuts<U: FieldUnit> {
    /// Refused while reading; the unread rest's refused characters follow them.
    private var rejectedRead: String
    /// Cut before and while reading; the unread rest's cut characters follow them, then `overflowAfter`.
    private var overflowRead: String
    /// The characters left unread, and the program that read up to them (whose slots sort them).
    private var unread: ArraySlice<U> = []
    private var sorter: Program? = nil
    /// Cut after the unread rest: entered characters that no longer fit once the rest was left.
    private var overflowAfter = ""

    init(rejected: String = "", overflow: String = "") {
        rejectedRead = rejected
        overflowRead = overflow
    }

    /// Nothing was refused or cut, and nothing left unread.
    var isEmpty: Bool { rejectedRead.isEmpty && overflowRead.isEmpty && sorter == nil && overflowAfter.isEmpty }

    /// Characters `program` leaves unread once reading has stopped; they are sorted by its slots.
    /// - Precondition: no rest is pending already (a reading stops once).
    mutating func leave(_ rest: ArraySlice<U>, for program: Program) {
        precondition(sorter == nil, "a reading leaves one rest")
        guard !rest.isEmpty else { return }
        unread = rest
        sorter = program
    }

    /// Appends `overflow` at the end of what was cut.
    mutating func cut(_ overflow: String) {
        guard !overflow.isEmpty else { return }
        if sorter == nil { overflowRead += overflow } else { overflowAfter += overflow }
    }

    /// Appends `later`, what a reading after this one refused and cut.
    mutating func append(_ later: Cuts<U>) {
        rejectedRead += later.rejectedRead
        cut(later.overflowRead)
        if let program = later.sorter { leave(later.unread, for: program) }
        cut(later.overflowAfter)
    }

    /// `rejected` and `overflow` in full, the unread rest sorted in one pass.
    func sorted() -> (rejected: String, overflow: String) {
        guard let sorter else { return (rejectedRead, overflowRead) }
        let rest = sorter.sortUnread(unread)
        return (rejectedRead + rest.rejected, overflowRead + rest.overflow + overflowAfter)
    }
}
