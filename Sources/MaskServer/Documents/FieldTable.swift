// maskd: the open fields of a document: where each lies on its piece, its session and its problem, by id.
import MaskEngine

/// The fields of a `PieceTree`'s pieces: each a slot holding its span on its piece (columns from the piece's
/// start), kept on its piece's list in order of start, found by id through `FieldIDIndex`. A field's slot, and the
/// session and problem it carries, stays the same while the field moves from piece to piece.
///
/// The table knows pieces only by their node numbers: the tree counts the fields, and is told of a field that
/// leaves a piece through the `unlinked` callbacks.
final class FieldTable {
    /// One open field. All numbers: the id, mask and kept result are elsewhere, so a walk copies no reference.
    struct Slot {
        var start: Int32
        var end: Int32
        /// The node of its piece; -1 for a free slot, -2 while detached during an update.
        var node: Int32
        /// The next field on the piece (or the next free slot), -1 at the end.
        var next: Int32
        /// The number of its session's mask in `masks`, -1 for no session; the session's kept result, when it
        /// keeps one, is in `keptResults`.
        var mask: Int32 = -1
        /// The number of the field's problem in its document's table (`FieldProblems`), -1 for none.
        var problem: Int32 = -1
        /// Where the slot stands in `problemSlots` while it has a problem; after it lost one, the place it left
        /// (to take back), until the list is compacted; else -1.
        var problemPlace: Int32 = -1
    }

    /// Fields read out of pieces or put on them, for tests that check a keystroke's work does not grow with its
    /// line.
    private(set) var fieldsRead = 0

    private var slots: [Slot] = []
    private var ids = FieldIDIndex()
    private var freeSlot: Int32 = -1
    /// The first field of each node's piece, by node, -1 for none (nodes past the end have none).
    private var firstField: [Int32] = []
    /// Slots taken off their pieces by the update under way.
    private var detached: [Int32] = []
    /// The masks of the sessions, each once, numbered (`Slot.mask`): fields mostly share a few. Those no field
    /// has any more are dropped when the table has doubled since the last drop.
    private var masks: [Mask] = []
    private var maskNumbers: [ObjectIdentifier: Int32] = [:]
    private var compactMasksAt = 64
    /// The results kept by sessions that keep one (the fields typed into), by slot.
    private var keptResults: [Int32: KeptResult] = [:]
    /// The slots of the fields that have a problem, in the order they first got one, so the problems are found in
    /// O(p), not by a pass over every field; a place a field left holds `vacated(by:)` of its slot.
    private var problemSlots: [Int32] = []
    /// How many places of `problemSlots` are left ones.
    private var vacatedProblemPlaces = 0

    // MARK: - Fields by id and by piece

    /// The slot of field `id`, attached or detached, or nil.
    func slot(of id: String) -> Int32? { ids.slot(of: id) }

    /// The id of the field in `slot`.
    func id(slot: Int32) -> String { ids.id(of: slot) }

    /// The node of the piece the field in `slot` is on, and its span there.
    func place(of slot: Int32) -> (node: Int32, start: Int, end: Int) {
        let s = slots[Int(slot)]
        return (s.node, Int(s.start), Int(s.end))
    }

    private func first(on node: Int32) -> Int32 { Int(node) < firstField.count ? firstField[Int(node)] : -1 }

    /// Calls `body` with the slot and span of each field on `node`'s piece, in order of start.
    func forEachField(on node: Int32, _ body: (_ slot: Int32, _ start: Int, _ end: Int) -> Void) {
        var slot = first(on: node)
        while slot >= 0 {
            let s = slots[Int(slot)]
            fieldsRead += 1
            body(slot, Int(s.start), Int(s.end))
            slot = s.next
        }
    }

    /// The fields on `node`'s piece, in order of start, `count` of them.
    func spans(on node: Int32, count: Int) -> [FieldSpan] {
        var fields: [FieldSpan] = []
        fields.reserveCapacity(count)
        var slot = first(on: node)
        while slot >= 0 {
            let s = slots[Int(slot)]
            fields.append(FieldSpan(id: ids.id(of: slot), start: Int(s.start), end: Int(s.end)))
            slot = s.next
        }
        fieldsRead += fields.count
        return fields
    }

    /// How many fields come before the one in `slot` on its piece.
    func order(of slot: Int32) -> Int {
        var place = 0
        var current = first(on: slots[Int(slot)].node)
        while current >= 0, current != slot {
            place += 1
            current = slots[Int(current)].next
        }
        fieldsRead += place
        return place
    }

    // MARK: - Moving fields

    /// Takes `node`'s fields off it; they stay in the table, detached, until attached again or released.
    func detach(from node: Int32) {
        var slot = first(on: node)
        while slot >= 0 {
            slots[Int(slot)].node = -2
            detached.append(slot)
            slot = slots[Int(slot)].next
        }
        if Int(node) < firstField.count { firstField[Int(node)] = -1 }
    }

    /// How many slots are detached: `attach`'s `likely` starts here for the fields of a piece detached next.
    var detachedCount: Int { detached.count }

    /// Puts `fields` (sorted by start) on `node`, which holds none, reusing the slot of each id already open; a
    /// field leaving another piece for it is passed to `unlinked` with that piece's node.
    /// - Parameter likelyFrom: where the slots the piece held start in the detached ones, in order: a field found
    ///   at its place there needs no lookup.
    /// - Returns: how many fields `node` holds (an id twice is kept once).
    func attach(
        _ fields: [FieldSpan], to node: Int32, likelyFrom: Int? = nil,
        unlinked: (Int32) -> Void
    ) -> Int32 {
        if Int(node) >= firstField.count {
            firstField.append(contentsOf: repeatElement(-1, count: Int(node) + 1 - firstField.count))
        }
        firstField[Int(node)] = -1
        var last: Int32 = -1
        var count: Int32 = 0
        fieldsRead += fields.count
        let likely = likelyFrom.map { detached[$0...] } ?? []
        for (offset, field) in fields.enumerated() {
            let slot: Int32
            let guess = offset < likely.count ? likely[likely.startIndex + offset] : -1
            if guess >= 0, slots[Int(guess)].node == -2, ids.slot(guess, has: field.id) {
                slot = guess
            } else if let existing = ids.slot(of: field.id) {
                slot = existing
                // An id twice on one piece is kept once.
                if slots[Int(slot)].node == node { continue }
                if slots[Int(slot)].node >= 0 { unlinked(unlink(slot)) }
            } else {
                slot = newSlot(Slot(start: 0, end: 0, node: -2, next: -1), id: field.id)
            }
            slots[Int(slot)].start = Int32(field.start)
            slots[Int(slot)].end = Int32(field.end)
            slots[Int(slot)].node = node
            slots[Int(slot)].next = -1
            if last >= 0 { slots[Int(last)].next = slot } else { firstField[Int(node)] = slot }
            count += 1
            last = slot
        }
        return count
    }

    /// Takes an attached slot off its piece (a field id moving, or closed). - Returns: that piece's node.
    private func unlink(_ slot: Int32) -> Int32 {
        let node = slots[Int(slot)].node
        var previous: Int32 = -1
        var current = firstField[Int(node)]
        while current >= 0, current != slot {
            previous = current
            current = slots[Int(current)].next
            fieldsRead += 1
        }
        let next = slots[Int(slot)].next
        if previous >= 0 { slots[Int(previous)].next = next } else { firstField[Int(node)] = next }
        slots[Int(slot)].node = -2
        return node
    }

    /// Takes field `id` off its piece and forgets it. - Returns: that piece's node, nil when there is no such field.
    func remove(_ id: String) -> Int32? {
        guard let slot = ids.slot(of: id), slots[Int(slot)].node >= 0 else { return nil }
        let node = unlink(slot)
        detached.append(slot)
        releaseDetached()
        return node
    }

    /// Frees every slot left detached by an update: those fields are gone.
    func releaseDetached() {
        for slot in detached where slots[Int(slot)].node == -2 {
            ids.remove(slot: slot)
            if slots[Int(slot)].problem >= 0 { dropProblem(slot) }
            if !keptResults.isEmpty { keptResults[slot] = nil }
            slots[Int(slot)] = Slot(start: 0, end: 0, node: -1, next: freeSlot)
            freeSlot = slot
        }
        detached.removeAll(keepingCapacity: true)
    }

    private func newSlot(_ value: Slot, id: String) -> Int32 {
        let slot: Int32
        if freeSlot >= 0 {
            slot = freeSlot
            freeSlot = slots[Int(slot)].next
            slots[Int(slot)] = value
        } else {
            slot = Int32(slots.count)
            slots.append(value)
        }
        ids.insert(id, slot: slot)
        return slot
    }

    // MARK: - Sessions

    /// The session in `slot`. - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func session(slot: Int32) -> FieldSession? {
        let number = slots[Int(slot)].mask
        guard number >= 0 else { return nil }
        return FieldSession(mask: masks[Int(number)], kept: keptResults.isEmpty ? nil : keptResults[slot])
    }

    /// Sets the session in `slot`. - Precondition: `slot` is a field's (from `slot(of:)`, no edit since).
    func setSession(_ session: FieldSession?, slot: Int32) {
        guard let session else {
            slots[Int(slot)].mask = -1
            if !keptResults.isEmpty { keptResults[slot] = nil }
            return
        }
        // Mostly the mask it had (a keystroke keeps its field's): then no lookup.
        let current = slots[Int(slot)].mask
        if current < 0 || masks[Int(current)] !== session.mask { slots[Int(slot)].mask = maskNumber(session.mask) }
        if let kept = session.kept {
            keptResults[slot] = kept
        } else if !keptResults.isEmpty {
            keptResults[slot] = nil
        }
    }

    /// The number of `mask` in `masks`, added when new.
    private func maskNumber(_ mask: Mask) -> Int32 {
        if let number = maskNumbers[ObjectIdentifier(mask)] { return number }
        if masks.count >= compactMasksAt { compactMasks() }
        let number = Int32(masks.count)
        masks.append(mask)
        maskNumbers[ObjectIdentifier(mask)] = number
        return number
    }

    /// Drops the masks no field has, renumbering the rest: O(slots), once for as many new masks as are kept.
    private func compactMasks() {
        var renumbered = [Int32](repeating: -1, count: masks.count)
        var kept: [Mask] = []
        for slot in slots.indices where slots[slot].mask >= 0 {
            let old = Int(slots[slot].mask)
            if renumbered[old] < 0 {
                renumbered[old] = Int32(kept.count)
                kept.append(masks[old])
            }
            slots[slot].mask = renumbered[old]
        }
        masks = kept
        maskNumbers = Dictionary(uniqueKeysWithValues: kept.enumerated().map { (ObjectIdentifier($1), Int32($0)) })
        compactMasksAt = max(64, 2 * kept.count)
    }

    // MARK: - Problems

    /// The number of the problem of the field in `slot`, -1 for none. - Precondition: `slot` is a field's.
    func problem(slot: Int32) -> Int32 { slots[Int(slot)].problem }

    /// Sets the number of the problem of the field in `slot`, -1 for none. - Precondition: `slot` is a field's.
    ///
    /// A field that gets a problem back takes back its old place in the list if no compaction has moved it: typing
    /// in a field whose problem comes and goes (emptied, then typed again) leaves the list in the order it was, so
    /// the diagnostics, which are in document order, need no sort.
    func setProblem(_ number: Int32, slot: Int32) {
        let had = slots[Int(slot)].problem >= 0
        slots[Int(slot)].problem = number
        if number >= 0, !had {
            let place = Int(slots[Int(slot)].problemPlace)
            if place >= 0, place < problemSlots.count, problemSlots[place] == FieldTable.vacated(by: slot) {
                problemSlots[place] = slot
                vacatedProblemPlaces -= 1
            } else {
                slots[Int(slot)].problemPlace = Int32(problemSlots.count)
                problemSlots.append(slot)
            }
        } else if number < 0, had {
            dropProblem(slot)
        }
    }

    /// The mark of a place in `problemSlots` that `slot` left (always negative).
    private static func vacated(by slot: Int32) -> Int32 { -2 - slot }

    /// Takes `slot` off the list of those with a problem; its place stays marked as its own (and the slot
    /// remembers it) until the list is compacted, once more than half of it is such marks.
    private func dropProblem(_ slot: Int32) {
        problemSlots[Int(slots[Int(slot)].problemPlace)] = FieldTable.vacated(by: slot)
        vacatedProblemPlaces += 1
        guard vacatedProblemPlaces >= 64, 2 * vacatedProblemPlaces > problemSlots.count else { return }
        var kept = 0
        for index in problemSlots.indices {
            let entry = problemSlots[index]
            if entry >= 0 {
                problemSlots[kept] = entry
                slots[Int(entry)].problemPlace = Int32(kept)
                kept += 1
            } else {
                // Its owner, if it is still a field, has no place to take back.
                let owner = Int(-2 - entry)
                if slots[owner].problem < 0, slots[owner].problemPlace == Int32(index) {
                    slots[owner].problemPlace = -1
                }
            }
        }
        problemSlots.removeLast(problemSlots.count - kept)
        vacatedProblemPlaces = 0
    }

    /// The number of fields that have a problem.
    var problemCount: Int { problemSlots.count - vacatedProblemPlaces }

    /// Calls `body` with the slot of every field that has a problem and its problem's number, in the order they
    /// first got one: O(p) for p such fields (and at most as many places they left).
    func forEachProblem(_ body: (_ slot: Int32, _ problem: Int32) -> Void) {
        for slot in problemSlots where slot >= 0 { body(slot, slots[Int(slot)].problem) }
    }

    /// Renumbers the problem of every field that has one.
    func renumberProblems(_ renumber: (Int32) -> Int32) {
        for slot in problemSlots where slot >= 0 { slots[Int(slot)].problem = renumber(slots[Int(slot)].problem) }
    }
}
