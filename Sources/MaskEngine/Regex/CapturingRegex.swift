/// A pattern in `RegexParser`'s capturing mode, run over ASCII bytes as a Pike VM: still linear
/// in the input (every byte costs O(states)), but with the answers a backtracking matcher gives.
///
/// Threads are kept in priority order (the left branch of an alternation, the longer choice of a
/// greedy quantifier first), so the match found, its end and its groups are the ones Python's
/// `re` and Java's `Matcher` report: `prefixMatch` is `re.match` (Java `lookingAt`), `fullMatch`
/// is `re.fullmatch` (Java `matches`). `$` asserts the end of the input. Bytes outside ASCII never
/// match. The phone metadata's patterns (digits, classes, groups, alternation, counted repetition)
/// are run this way. A class: the metadata holds many, and passing one costs one reference.
public final class CapturingRegex: Sendable {
    fileprivate enum Op: UInt8, Sendable {
        case consume, split, accept, save, assertEnd
    }

    /// The pattern as given.
    public let pattern: String
    /// The capturing groups, numbered from 1.
    public let groupCount: Int
    private let ops: [Op]
    /// consume: next; split: first choice; save: slot; assertEnd: next.
    private let first: [Int32]
    /// split: second choice; save: next.
    private let second: [Int32]
    /// For consume states: the ASCII bytes 0-63 and 64-127 the state takes, as bits.
    private let low: [UInt64]
    private let high: [UInt64]
    private let start: Int32
    /// For consume states: the class (in `sets`) they take, for scalars beyond ASCII (`search`); -1 for none.
    private let setIndex: [Int32]
    private let sets: [ScalarSet]
    /// The pattern begins with `^`: `search` tries the start of the input only.
    private let anchored: Bool
    /// The same pattern as a deterministic automaton over the digits 0-9, for `matches` on digit
    /// input; nil when the pattern has `$` or its automaton would be too large.
    private let digits: DigitAutomaton?

    /// Compiles `pattern`.
    /// - Throws: `MaskError` for what `LinearRegex` refuses.
    public init(_ pattern: String) throws {
        let regex = try LinearRegex(pattern, capturing: true)
        self.pattern = pattern
        groupCount = regex.groupCount
        var setMasks: [(UInt64, UInt64)] = []
        for set in regex.sets {
            var mask: (UInt64, UInt64) = (0, 0)
            for value in 0..<128 where set.contains(Unicode.Scalar(UInt8(value))) {
                if value < 64 { mask.0 |= 1 << UInt64(value) } else { mask.1 |= 1 << UInt64(value - 64) }
            }
            setMasks.append(mask)
        }
        var ops: [Op] = [], first: [Int32] = [], second: [Int32] = [], low: [UInt64] = [], high: [UInt64] = []
        var setIndex: [Int32] = []
        for (index, state) in regex.states.enumerated() {
            var op = Op.accept, a: Int32 = 0, b: Int32 = 0, maskLow: UInt64 = 0, maskHigh: UInt64 = 0, set: Int32 = -1
            switch state {
            case .consume(let index, let next):
                op = .consume
                a = Int32(next)
                (maskLow, maskHigh) = setMasks[index]
                set = Int32(index)
            case .split(let x, let y): op = .split; a = Int32(x); b = Int32(y)
            case .accept: op = .accept
            case .save(let slot, let next): op = .save; a = Int32(slot); b = Int32(next)
            case .assertEnd(let next): op = .assertEnd; a = Int32(next)
            }
            // A state the accept state cannot be reached from is never worth a thread.
            if !regex.live[index] { op = .consume; maskLow = 0; maskHigh = 0; set = -1 }
            ops.append(op)
            setIndex.append(set)
            first.append(a)
            second.append(b)
            low.append(maskLow)
            high.append(maskHigh)
        }
        self.ops = ops
        self.first = first
        self.second = second
        self.low = low
        self.high = high
        self.start = Int32(regex.start)
        self.setIndex = setIndex
        sets = regex.sets
        anchored = pattern.hasPrefix("^")
        digits = DigitAutomaton(ops: ops, first: first, second: second, low: low, start: Int32(regex.start))
    }

    /// The digit automaton's tables, for a caller that steps it a digit at a time (the phone field's kept
    /// number): `next[10 * state + digit]` (-1: the input can no longer match), `accepting[state]`, state 0
    /// the start; nil when the pattern has no automaton.
    package var digitTables: (next: [Int32], accepting: [Bool])? { digits.map { ($0.next, $0.accepting) } }

    /// Whether the pattern runs as a digit automaton (it has no `$`, so a prefix that matches matches
    /// with any digits after it too).
    var hasDigitAutomaton: Bool { digits != nil }

    @inline(__always)
    private func takes(_ state: Int, _ byte: UInt8) -> Bool {
        byte < 64
            ? low[state] & (1 << UInt64(byte)) != 0
            : byte < 128 && high[state] & (1 << UInt64(byte - 64)) != 0
    }

    /// The highest-priority match starting at the beginning of `input` (any end when `whole` is
    /// false, the end of the input when true): slots `2g` and `2g+1` hold group `g`'s bounds
    /// (group 0: the whole match), -1 for a group that took no part.
    package func match(_ input: ArraySlice<UInt8>, whole: Bool) -> [Int]? {
        // Most inputs a phone pattern is tried on do not match at all: the automaton says so fast.
        if let digits, digits.matches(input, whole: whole) == false { return nil }
        let base = input.startIndex
        return run(
            count: input.count, searching: false, whole: whole, slotCount: 2 * (groupCount + 1),
            takes: { state, position in takes(state, input[base + position]) },
            answer: { Array(UnsafeBufferPointer(start: $0, count: 2 * (groupCount + 1))) })
    }

    /// Where the match `match` finds ends, without recording groups (the phone field asks this on
    /// every key, of patterns whose groups it does not use).
    package func matchEnd(_ input: ArraySlice<UInt8>, whole: Bool) -> Int? {
        if let digits {
            if whole, let answer = digits.matches(input, whole: true) { return answer ? input.count : nil }
            // A match can only end where some prefix is in the language: with none or one such end the
            // answer needs no thread priorities (a national prefix such as `0|180020` has one).
            if !whole, let (ends, end, _) = digits.matchingPrefixes(input) {
                if ends == 0 { return nil }
                if ends == 1 { return end }
            }
        }
        let base = input.startIndex
        return run(
            count: input.count, searching: false, whole: whole, slotCount: 2,
            takes: { state, position in takes(state, input[base + position]) }, answer: { $0[1] })
    }

    /// `matchEnd(input, whole: false)`, and whether every input that starts with `input` has the same
    /// answer (the digit automaton died reading it, with at most one prefix matched): a caller reading a
    /// number a digit at a time need not ask again.
    package func matchEndSettled(_ input: ArraySlice<UInt8>) -> (end: Int?, settled: Bool) {
        if let digits, let (ends, end, died) = digits.matchingPrefixes(input), ends < 2 {
            return (ends == 0 ? nil : end, died)
        }
        return (matchEnd(input, whole: false), false)
    }

    /// Python's `re.search` over Unicode scalars: the leftmost match, and among matches starting
    /// there the highest-priority one, anywhere in `input` (at its start only when the pattern
    /// begins with `^`); slots as `match` gives them, in scalar offsets. Linear in the input.
    public func search(_ input: [Unicode.Scalar]) -> [Int]? {
        let slotCount = 2 * (groupCount + 1)
        return run(
            count: input.count, searching: !anchored, whole: false, slotCount: slotCount,
            takes: { state, position in
                let value = input[position].value
                if value < 128 { return takes(state, UInt8(value)) }
                let set = setIndex[state]
                return set >= 0 && sets[Int(set)].contains(input[position])
            }, answer: { Array(UnsafeBufferPointer(start: $0, count: slotCount)) })
    }

    /// The Pike VM over `count` elements: `takes(state, position)` says whether consume state
    /// `state` takes the element at `position`. When `searching`, a thread also starts at every
    /// later position until a match is found, each below the threads that started earlier, so the
    /// leftmost match wins. Only the first `slotCount` slots are recorded (2: the match's bounds);
    /// `answer` reads them from the match found.
    @inline(__always)
    private func run<Answer>(
        count: Int, searching: Bool, whole: Bool, slotCount: Int, takes: (Int, Int) -> Bool,
        answer: (UnsafeMutablePointer<Int>) -> Answer
    ) -> Answer? {
        let stateCount = ops.count
        // Marks, two thread lists and their capture slots, all in one temporary buffer.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: stateCount * (3 + 2 * slotCount) + 2 * slotCount) {
            buffer -> Answer? in
            let marks = buffer.baseAddress!
            marks.initialize(repeating: -1, count: stateCount)
            var current = marks + stateCount
            var next = current + stateCount
            var currentSlots = next + stateCount
            var nextSlots = currentSlots + stateCount * slotCount
            let scratch = nextSlots + stateCount * slotCount
            let matched = scratch + slotCount
            var currentCount = 0, nextCount = 0
            var found = false

            /// Adds `state`'s closure at `position` with capture slots `slots`, in priority order.
            func add(
                _ state: Int32, _ slots: UnsafeMutablePointer<Int>, _ position: Int,
                _ list: UnsafeMutablePointer<Int>, _ listSlots: UnsafeMutablePointer<Int>, _ listCount: inout Int
            ) {
                let s = Int(state)
                if marks[s] == position { return }
                marks[s] = position
                switch ops[s] {
                case .consume, .accept:
                    list[listCount] = s
                    (listSlots + listCount * slotCount).update(from: slots, count: slotCount)
                    listCount += 1
                case .split:
                    add(first[s], slots, position, list, listSlots, &listCount)
                    add(second[s], slots, position, list, listSlots, &listCount)
                case .save:
                    let slot = Int(first[s])
                    guard slot < slotCount else {
                        add(second[s], slots, position, list, listSlots, &listCount)
                        return
                    }
                    let old = slots[slot]
                    slots[slot] = position
                    add(second[s], slots, position, list, listSlots, &listCount)
                    slots[slot] = old
                case .assertEnd:
                    if position == count { add(first[s], slots, position, list, listSlots, &listCount) }
                }
            }

            scratch.initialize(repeating: -1, count: slotCount)
            scratch[0] = 0
            add(start, scratch, 0, current, currentSlots, &currentCount)
            var position = 0
            while currentCount > 0 || (searching && !found && position <= count) {
                nextCount = 0
                for t in 0..<currentCount {
                    let s = current[t]
                    if ops[s] == .accept {
                        if !whole || position == count {
                            matched.update(from: currentSlots + t * slotCount, count: slotCount)
                            matched[1] = position
                            found = true
                            // Lower-priority threads can only give a worse match.
                            break
                        }
                        continue
                    }
                    guard position < count, takes(s, position) else { continue }
                    scratch.update(from: currentSlots + t * slotCount, count: slotCount)
                    add(first[s], scratch, position + 1, next, nextSlots, &nextCount)
                }
                if position == count { break }
                position += 1
                if searching && !found {
                    // A match starting here comes after every one that started earlier.
                    scratch.update(repeating: -1, count: slotCount)
                    scratch[0] = position
                    add(start, scratch, position, next, nextSlots, &nextCount)
                }
                swap(&current, &next)
                swap(&currentSlots, &nextSlots)
                currentCount = nextCount
            }
            return found ? answer(matched) : nil
        }
    }

    /// Whether some prefix of `input` (`whole`: the whole input) matches, without recording groups.
    package func matches(_ input: ArraySlice<UInt8>, whole: Bool) -> Bool {
        if let digits, let answer = digits.matches(input, whole: whole) { return answer }
        let count = input.count
        let base = input.startIndex
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: ops.count * 3) { buffer -> Bool in
            let marks = buffer.baseAddress!
            marks.initialize(repeating: -1, count: ops.count)
            var current = marks + ops.count
            var next = current + ops.count
            var currentCount = 0, nextCount = 0
            var stack: [Int32] = []
            var accepted = false

            func add(_ entry: Int32, _ position: Int, _ list: UnsafeMutablePointer<Int32>, _ listCount: inout Int) {
                stack.append(entry)
                while let state = stack.popLast() {
                    let s = Int(state)
                    if marks[s] == Int32(position) { continue }
                    marks[s] = Int32(position)
                    switch ops[s] {
                    case .consume:
                        if low[s] | high[s] != 0 {
                            list[listCount] = state
                            listCount += 1
                        }
                    case .accept: accepted = true
                    case .split:
                        stack.append(second[s])
                        stack.append(first[s])
                    case .save: stack.append(second[s])
                    case .assertEnd: if position == count { stack.append(first[s]) }
                    }
                }
            }
            add(start, 0, current, &currentCount)
            if accepted && !whole { return true }
            var position = 0
            while position < count, currentCount > 0 {
                let byte = input[base + position]
                accepted = false
                nextCount = 0
                for t in 0..<currentCount {
                    let s = Int(current[t])
                    if takes(s, byte) { add(first[s], position + 1, next, &nextCount) }
                }
                position += 1
                if accepted && (!whole || position == count) { return true }
                swap(&current, &next)
                currentCount = nextCount
            }
            return whole && accepted && position == count
        }
    }

    /// Python's `re.sub(pattern, template, input)`: every non-overlapping match, leftmost first,
    /// replaced by `template` with `$n` standing for group `n`.
    package func substitute(_ input: ArraySlice<UInt8>, template: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var position = input.startIndex
        while position <= input.endIndex {
            if let slots = match(input[position...], whole: false), slots[1] > 0 {
                Self.expand(template, slots: slots, in: input[position...], into: &out)
                position += slots[1]
                continue
            }
            // An empty match or none here: keep the byte and look again after it.
            if position == input.endIndex { break }
            out.append(input[position])
            position += 1
        }
        return out
    }

    /// Appends `template` with each `$n` replaced by group `n` of a match in `input`.
    package static func expand(_ template: [UInt8], slots: [Int], in input: ArraySlice<UInt8>, into out: inout [UInt8])
    {
        var i = 0
        while i < template.count {
            let byte = template[i]
            if byte == UInt8(ascii: "$"), i + 1 < template.count, template[i + 1] >= 0x30, template[i + 1] <= 0x39 {
                let group = Int(template[i + 1] - 0x30)
                if 2 * group + 1 < slots.count, slots[2 * group] >= 0 {
                    let base = input.startIndex
                    out.append(contentsOf: input[(base + slots[2 * group])..<(base + slots[2 * group + 1])])
                }
                i += 2
                continue
            }
            out.append(byte)
            i += 1
        }
    }
}

/// A pattern's NFA made deterministic over the ten ASCII digits (subset construction), so a digit
/// costs one table lookup. Phone metadata patterns are anchored and bounded, so their automata
/// stay small; one that would not is left to the NFA simulation.
private struct DigitAutomaton: Sendable {
    /// `next[10 * state + digit]`, -1 for no state (the input cannot match).
    let next: [Int32]
    let accepting: [Bool]
    /// The most states built before giving up on an automaton.
    static let maximumStates = 4_000

    init?(ops: [CapturingRegex.Op], first: [Int32], second: [Int32], low: [UInt64], start: Int32) {
        guard !ops.contains(.assertEnd) else { return nil }
        /// The consume states reachable from `entries` without input, sorted, and whether accept is.
        func closure(_ entries: [Int32]) -> (states: [Int32], accepts: Bool) {
            var seen = Set<Int32>()
            var stack = entries
            var states: [Int32] = []
            var accepts = false
            while let state = stack.popLast() {
                guard seen.insert(state).inserted else { continue }
                let s = Int(state)
                switch ops[s] {
                case .consume: if low[s] & 0x03FF_0000_0000_0000 != 0 { states.append(state) }
                case .accept: accepts = true
                case .split: stack.append(first[s]); stack.append(second[s])
                case .save: stack.append(second[s])
                case .assertEnd: break
                }
            }
            // The accept state is part of the set: two sets differing only by it are different states.
            return (states.sorted() + (accepts ? [-1] : []), accepts)
        }
        var ids: [[Int32]: Int32] = [:]
        var sets: [[Int32]] = []
        var accepting: [Bool] = []
        var next: [Int32] = []
        func id(_ closure: (states: [Int32], accepts: Bool)) -> Int32 {
            if let known = ids[closure.states] { return known }
            let new = Int32(sets.count)
            ids[closure.states] = new
            sets.append(closure.states)
            accepting.append(closure.accepts)
            return new
        }
        _ = id(closure([start]))
        var index = 0
        while index < sets.count {
            if sets.count > Self.maximumStates { return nil }
            for digit in 0..<10 {
                let bit = UInt64(1) << UInt64(0x30 + digit)
                let targets = sets[index].filter { $0 >= 0 && low[Int($0)] & bit != 0 }.map { first[Int($0)] }
                let target = closure(targets)
                next.append(target.states.isEmpty && !target.accepts ? -1 : id(target))
            }
            index += 1
        }
        self.next = next
        self.accepting = accepting
    }

    /// How many prefixes of `input` (the empty one included) are in the language, counting up to
    /// two, the length of the first, and whether the automaton died reading `input` (no longer
    /// prefix is); nil when `input` holds a byte other than a digit.
    func matchingPrefixes(_ input: ArraySlice<UInt8>) -> (ends: Int, first: Int, died: Bool)? {
        var state: Int32 = 0
        var ends = accepting[0] ? 1 : 0
        var first = 0
        for (offset, byte) in input.enumerated() {
            let digit = Int(byte) &- 0x30
            guard digit >= 0, digit < 10 else { return nil }
            state = next[10 * Int(state) + digit]
            // No state: no longer prefix can be in the language (the rest need not be digits).
            if state < 0 { return (ends, first, true) }
            if accepting[Int(state)] {
                if ends == 1 { return (2, first, false) }
                ends = 1
                first = offset + 1
            }
        }
        return (ends, first, false)
    }

    /// The answer for digit input, nil when `input` holds something else.
    func matches(_ input: ArraySlice<UInt8>, whole: Bool) -> Bool? {
        var state: Int32 = 0
        if !whole, accepting[0] { return true }
        for byte in input {
            let digit = Int(byte) &- 0x30
            guard digit >= 0, digit < 10 else { return nil }
            state = next[10 * Int(state) + digit]
            if state < 0 { return false }
            if !whole, accepting[Int(state)] { return true }
        }
        return accepting[Int(state)]
    }
}
