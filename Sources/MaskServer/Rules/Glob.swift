// maskd: the `files` glob of a field rule.

/// A glob over a document's path relative to its workspace folder (`/`-separated).
///
/// `*` is any run of characters but `/`, `?` one character but `/`, `**` as a whole path segment any number of
/// segments (none included), `{a,b}` either alternative (alternatives may hold globs, not other braces), `\`
/// makes the next character literal. A glob without a `/` is matched against the file's name, in any folder (as
/// `.gitignore` and `.editorconfig` do): `*.env` is `**/*.env`.
struct Glob: Hashable, Sendable {
    /// One piece of a path segment's pattern.
    enum Piece: Hashable, Sendable {
        case literal(Character)
        case anyOne
        case anyRun
    }

    /// A path segment's pattern, or `**`.
    enum Segment: Hashable, Sendable {
        case anySegments
        case pattern([Piece])
    }

    /// The glob as written.
    let source: String
    /// One segment list per brace alternative (`{a,b}` expanded).
    private let alternatives: [[Segment]]

    /// The most alternatives braces may expand to: a glob is a person's, not a generated list.
    static let maxAlternatives = 256
    /// The longest glob accepted, in characters: a path pattern, not a generated list.
    static let maxLength = 1024

    /// Compiles `glob`. - Throws: `GlobError` for an unclosed or nested `{`, a stray `}`, a trailing `\`, an
    /// empty glob, a glob longer than `maxLength`, or braces expanding past `maxAlternatives`.
    init(_ glob: String) throws {
        source = glob
        guard !glob.isEmpty else { throw GlobError("the glob is empty") }
        guard glob.unicodeScalars.count <= Glob.maxLength else {
            throw GlobError("it is longer than \(Glob.maxLength) characters")
        }
        var expanded = [""]
        let chars = Array(glob)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "\\":
                guard i + 1 < chars.count else { throw GlobError("a '\\' ends the glob") }
                expanded = expanded.map { $0 + "\\" + String(chars[i + 1]) }
                i += 2
                continue
            case "{":
                var options: [String] = [""]
                var j = i + 1
                var closed = false
                while j < chars.count {
                    let d = chars[j]
                    if d == "\\", j + 1 < chars.count {
                        options[options.count - 1] += "\\" + String(chars[j + 1])
                        j += 2
                        continue
                    }
                    if d == "{" { throw GlobError("'{' inside braces at character \(j + 1): braces do not nest") }
                    if d == "}" { closed = true; break }
                    if d == "," { options.append("") } else { options[options.count - 1].append(d) }
                    j += 1
                }
                guard closed else { throw GlobError("'{' at character \(i + 1) is never closed") }
                guard expanded.count * options.count <= Glob.maxAlternatives else {
                    throw GlobError("its braces make more than \(Glob.maxAlternatives) alternatives")
                }
                expanded = expanded.flatMap { prefix in options.map { prefix + $0 } }
                i = j + 1
                continue
            case "}":
                throw GlobError("'}' at character \(i + 1) closes no '{'")
            default:
                expanded = expanded.map { $0 + String(c) }
            }
            i += 1
        }
        alternatives = expanded.map(Glob.segments)
    }

    /// The segments of one brace-free alternative; without a `/` it is preceded by `**`.
    private static func segments(_ glob: String) -> [Segment] {
        var segments: [Segment] = []
        var pieces: [Piece] = []
        var escaped = false
        var sawSlash = false
        var raw = ""
        func endSegment() {
            segments.append(raw == "**" ? .anySegments : .pattern(pieces))
            pieces = []
            raw = ""
        }
        for c in glob {
            if escaped {
                pieces.append(.literal(c))
                raw.append("\\")
                raw.append(c)
                escaped = false
                continue
            }
            switch c {
            case "\\": escaped = true
            case "/":
                sawSlash = true
                endSegment()
            case "*":
                // `**` inside a segment (`a**b`) is just `*`.
                if pieces.last != .anyRun { pieces.append(.anyRun) }
                raw.append(c)
            case "?":
                pieces.append(.anyOne)
                raw.append(c)
            default:
                pieces.append(.literal(c))
                raw.append(c)
            }
        }
        endSegment()
        // A leading `/` anchors at the folder, like a glob with a `/` anywhere.
        if case .pattern(let first) = segments.first, first.isEmpty, segments.count > 1 { segments.removeFirst() }
        return sawSlash ? segments : [.anySegments] + segments
    }

    /// Whether `path` (relative, `/`-separated) matches.
    func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0) }
        return alternatives.contains { Glob.match($0, parts) }
    }

    /// Segment-wise matching as a set of states (how many segments are matched so far), one pass over the path:
    /// O(path segments × glob segments) segment matches, however many `**` there are (a rule's glob is untrusted: a
    /// cloned repository's `.maskd.json`), where retrying every split for each `**` was exponential.
    private static func match(_ segments: [Segment], _ parts: [[Character]]) -> Bool {
        var states = [Bool](repeating: false, count: segments.count + 1)
        states[0] = true
        skipAnySegments(segments, &states)
        for part in parts {
            var next = [Bool](repeating: false, count: segments.count + 1)
            var any = false
            for i in segments.indices where states[i] {
                switch segments[i] {
                case .anySegments:
                    next[i] = true
                    any = true
                case .pattern(let pieces):
                    if matchSegment(pieces, part) {
                        next[i + 1] = true
                        any = true
                    }
                }
            }
            guard any else { return false }
            skipAnySegments(segments, &next)
            states = next
        }
        return states[segments.count]
    }

    /// Adds the states reached by a `**` matching no segment.
    private static func skipAnySegments(_ segments: [Segment], _ states: inout [Bool]) {
        for i in segments.indices where states[i] {
            if case .anySegments = segments[i] { states[i + 1] = true }
        }
    }

    /// One segment against its pattern: the classic greedy star with one backtrack point, linear-ish.
    private static func matchSegment(_ pieces: [Piece], _ text: [Character]) -> Bool {
        var p = 0, t = 0
        var star = -1, resume = 0
        while t < text.count {
            if p < pieces.count {
                switch pieces[p] {
                case .anyRun:
                    star = p
                    resume = t
                    p += 1
                    continue
                case .anyOne:
                    p += 1
                    t += 1
                    continue
                case .literal(let c) where c == text[t]:
                    p += 1
                    t += 1
                    continue
                case .literal:
                    break
                }
            }
            guard star >= 0 else { return false }
            p = star + 1
            resume += 1
            t = resume
        }
        while p < pieces.count, pieces[p] == .anyRun { p += 1 }
        return p == pieces.count
    }
}

/// Why a glob does not compile.
struct GlobError: Error, Hashable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
