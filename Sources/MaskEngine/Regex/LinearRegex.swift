/// A regular expression matched in linear time: a Thompson NFA simulated one scalar at a time.
///
/// Swift's `Regex` backtracks, and `^(a+)+$` against `aaaa…a!` takes seconds at 18 characters;
/// this matcher keeps the set of live NFA states instead, so every scalar of the input costs at
/// most O(states) work, whatever the pattern.
///
/// **Matching is over Unicode scalars**, not grapheme clusters: `.` and every class match one
/// scalar (a letter with a combining accent is two). Mask values are short and normalised
/// (digits to ASCII), so this is what patterns for them need.
///
/// **Whole-value matching.** `matches` asks whether the whole string matches; there is no search.
/// `^` at the start and `$` at the end of a top-level alternative are accepted as no-ops; anywhere
/// else they are refused.
///
/// **Supported subset**: literals; `.` (any scalar but `\n`, `\r`, U+2028, U+2029); escapes
/// `\d` (ASCII digits), `\w` (ASCII letters, digits, `_`), `\s` (ECMAScript white space) and their
/// negations `\D \W \S`, `\t \n \r \f \v \0`, `\xHH`, `\uHHHH`, `\u{H…}`, `\x{H…}`, and any
/// escaped non-alphanumeric character as itself (`\. \\ \- \[ \{`); classes `[a-z0-9_]`, `[^…]`,
/// with escapes and class escapes inside (`[\d.]`); alternation `|`; groups `( )` and `(?: )`
/// (nothing is captured); quantifiers `* + ? {n} {n,} {n,m}` (counts up to 1000), greedy or lazy
/// (`*?`: a lazy quantifier matches the same whole strings). Counted repetition is expanded, and
/// a pattern whose program would exceed `maxStates` states is refused.
///
/// **Refused with an offset** (in characters of the pattern): backreferences, lookaround,
/// named, atomic, comment and conditional groups, inline options, possessive quantifiers, word
/// boundaries, `\A \z \Z \G`, Unicode properties `\p`, `\c`, `\Q…\E`, `\K`, octal escapes,
/// unknown letter escapes, nested or POSIX classes and `&&` in classes, an empty class `[]`,
/// a `{` that does not start a counted repetition, a quantifier with nothing to repeat or after
/// another quantifier, unbalanced `(`, `)` or `[`, a trailing `\`, nesting deeper than 200 groups.
public struct LinearRegex: Sendable {
    /// One NFA state.
    package enum State: Sendable {
        /// Consumes one scalar in `sets[set]`, then goes to `next`.
        case consume(set: Int, next: Int)
        /// Goes to both states without consuming.
        case split(Int, Int)
        /// The whole input has matched.
        case accept
        /// Records the input position in capture slot `slot`, then goes to `next` (capturing mode).
        case save(slot: Int, next: Int)
        /// Goes to `next` only at the end of the input (capturing mode's `$`).
        case assertEnd(next: Int)
    }

    /// The pattern as given.
    public let pattern: String
    /// The NFA program; `start` is its entry.
    package let states: [State]
    /// The classes `consume` states refer to.
    package let sets: [ScalarSet]
    /// The entry state.
    package let start: Int
    /// For each state, whether the accept state can be reached from it by some input.
    package let live: [Bool]
    /// The capturing groups (capturing mode only; 0 otherwise).
    let groupCount: Int

    /// The most states a compiled pattern may have (counted repetition is expanded).
    public static let maxStates = 10_000

    /// The number of states of the compiled program (for tests and diagnostics).
    public var stateCount: Int { states.count }

    /// Compiles `pattern`.
    /// - Throws: `MaskError` naming the problem ("unsupported regex feature: backreference",
    ///   "unbalanced ')'") with its offset in characters of the pattern.
    public init(_ pattern: String) throws {
        try self.init(pattern, capturing: false)
    }

    /// Compiles `pattern`, in `RegexParser`'s capturing mode when `capturing` is true.
    init(_ pattern: String, capturing: Bool) throws {
        var parser = RegexParser(pattern, capturing: capturing)
        let tree = try parser.parse()
        self.groupCount = parser.groupCount
        var compiler = Compiler(sets: parser.sets)
        let accept = try compiler.emit(.accept, offset: 0)
        let entry = try compiler.compile(tree, next: accept)
        self.pattern = pattern
        self.states = compiler.states
        self.sets = compiler.sets
        self.start = entry
        self.live = Self.liveness(states: compiler.states, sets: compiler.sets)
    }

    /// Whether the whole of `s` matches.
    public func matches(_ s: String) -> Bool {
        run(s).accepted
    }

    /// Whether some continuation of `s` (possibly the empty one) matches.
    public func isViablePrefix(_ s: String) -> Bool {
        let outcome = run(s)
        return outcome.accepted || outcome.alive
    }

    /// Marks every state from which the accept state is reachable, walking the edges backwards.
    private static func liveness(states: [State], sets: [ScalarSet]) -> [Bool] {
        var predecessors = [[Int]](repeating: [], count: states.count)
        var acceptStates: [Int] = []
        for (index, state) in states.enumerated() {
            switch state {
            case .consume(let set, let next):
                if !sets[set].isEmpty { predecessors[next].append(index) }
            case .split(let a, let b):
                predecessors[a].append(index)
                predecessors[b].append(index)
            case .accept:
                acceptStates.append(index)
            case .save(_, let next), .assertEnd(let next):
                predecessors[next].append(index)
            }
        }
        var live = [Bool](repeating: false, count: states.count)
        var stack = acceptStates
        for index in acceptStates { live[index] = true }
        while let index = stack.popLast() {
            for predecessor in predecessors[index] where !live[predecessor] {
                live[predecessor] = true
                stack.append(predecessor)
            }
        }
        return live
    }

    /// Simulates the NFA over the scalars of `s`: whether it accepts, and whether any live state remains.
    private func run(_ s: String) -> (accepted: Bool, alive: Bool) {
        var mark = [Int](repeating: -1, count: states.count)
        var current: [Int] = []
        var next: [Int] = []
        var stack: [Int] = []
        var accepted = false
        var generation = 0

        /// Adds the epsilon closure of `entry` to `list`, keeping only live consume states.
        func addClosure(_ entry: Int, to list: inout [Int]) {
            stack.append(entry)
            while let index = stack.popLast() {
                if mark[index] == generation || !live[index] { continue }
                mark[index] = generation
                switch states[index] {
                case .consume: list.append(index)
                case .split(let a, let b):
                    stack.append(b)
                    stack.append(a)
                case .accept: accepted = true
                // Only patterns compiled in capturing mode have these; `CapturingRegex` runs those.
                case .save(_, let next), .assertEnd(let next): stack.append(next)
                }
            }
        }

        addClosure(start, to: &current)
        for scalar in s.unicodeScalars {
            if current.isEmpty { return (false, false) }
            generation += 1
            accepted = false
            next.removeAll(keepingCapacity: true)
            for index in current {
                if case .consume(let set, let target) = states[index], sets[set].contains(scalar) {
                    addClosure(target, to: &next)
                }
            }
            swap(&current, &next)
        }
        return (accepted, !current.isEmpty)
    }

    /// Builds the NFA from the tree back to front: each node is compiled knowing where it continues.
    struct Compiler {
        /// The program so far.
        var states: [State] = []
        /// The classes the tree refers to.
        let sets: [ScalarSet]
        /// Compile steps taken: bounds work even for repetitions of empty groups, which add no state.
        private var steps = 0

        /// Starts a program over the parser's classes.
        init(sets: [ScalarSet]) {
            self.sets = sets
        }

        /// The error for a program that grew too large.
        private func tooLarge(_ offset: Int?) -> MaskError {
            MaskError(
                "regex too large: more than \(LinearRegex.maxStates) states once counted repetition is expanded",
                offset: offset ?? 0)
        }

        /// Appends a state and returns its index.
        /// - Throws: `MaskError` at `offset` when the program would exceed `maxStates`.
        mutating func emit(_ state: State, offset: Int?) throws -> Int {
            if states.count >= LinearRegex.maxStates { throw tooLarge(offset) }
            states.append(state)
            return states.count - 1
        }

        /// Compiles `node` so that it continues at `next`, returning its entry state.
        /// - Parameter offset: the outermost enclosing quantifier's offset, reported if the program grows too large.
        mutating func compile(_ node: RegexNode, next: Int, offset: Int? = nil) throws -> Int {
            steps += 1
            if steps > LinearRegex.maxStates * 10 { throw tooLarge(offset) }
            switch node {
            case .empty:
                return next
            case .set(let set):
                return try emit(.consume(set: set, next: next), offset: offset)
            case .concat(let parts):
                var entry = next
                for part in parts.reversed() {
                    entry = try compile(part, next: entry, offset: offset)
                }
                return entry
            case .alternation(let alternatives):
                var entries: [Int] = []
                for alternative in alternatives {
                    entries.append(try compile(alternative, next: next, offset: offset))
                }
                var entry = entries[entries.count - 1]
                for other in entries.dropLast().reversed() {
                    entry = try emit(.split(other, entry), offset: offset)
                }
                return entry
            case .repetition(let body, let min, let max, let own):
                let at = offset ?? own
                var entry: Int
                if let max {
                    // The optional copies nest, (x(x(x)?)?)?, so each adds one split.
                    entry = next
                    for _ in 0..<(max - min) {
                        let copy = try compile(body, next: entry, offset: at)
                        entry = try emit(.split(copy, next), offset: at)
                    }
                } else {
                    // x*: a split that loops through the body or leaves.
                    let loop = try emit(.split(-1, next), offset: at)
                    let copy = try compile(body, next: loop, offset: at)
                    states[loop] = .split(copy, next)
                    entry = loop
                }
                for _ in 0..<min {
                    entry = try compile(body, next: entry, offset: at)
                }
                return entry
            case .capture(let body, let index):
                let close = try emit(.save(slot: 2 * index + 1, next: next), offset: offset)
                let inner = try compile(body, next: close, offset: offset)
                return try emit(.save(slot: 2 * index, next: inner), offset: offset)
            case .endOfInput:
                return try emit(.assertEnd(next: next), offset: offset)
            }
        }
    }
}
