/// Where a number field's prefix and suffix stand in a text being read, so that each is
/// recognised as a whole before any of its characters is read as a digit, a mark or a separator
/// (`Rs.1,234.50` holds the prefix `Rs.`, not a decimal mark before `1`).
///
/// A text is read in three steps:
/// - **Stepping over the prefix.** Read from a place inside the prefix (the start of an empty field,
///   or a caret inside the shown prefix), characters equal to the prefix's next ones are consumed
///   as it, as a slot mask consumes a literal typed at it; the first other character ends this.
/// - **The prefix, whole.** Otherwise its first whole occurrence is skipped (`-Rs.12` and `Rs.-12`).
/// - **The suffix, whole.** Its last whole occurrence after the prefix is skipped.
///
/// `NumberField.validate` keeps these unambiguous: the prefix never begins with a digit, the mark
/// or a group separator, so it cannot start inside a number's own characters, and the suffix never
/// begins with a digit or the mark and holds some other character, so it cannot lie inside them.
struct NumberAffix {
    /// The prefix's characters.
    let prefix: [Character]
    /// The suffix's characters.
    let suffix: [Character]
    /// The same as bytes, when they are ASCII (a non-ASCII affix never occurs in an ASCII text).
    let prefixBytes: [UInt8]?
    let suffixBytes: [UInt8]?

    init(prefix: String, suffix: String) {
        self.prefix = Array(prefix)
        self.suffix = Array(suffix)
        prefixBytes = prefix.utf8.allSatisfy { $0 < 0x80 } ? Array(prefix.utf8) : nil
        suffixBytes = suffix.utf8.allSatisfy { $0 < 0x80 } ? Array(suffix.utf8) : nil
    }

    var isEmpty: Bool { prefix.isEmpty && suffix.isEmpty }

    /// What reading a text skips: `stepped` characters at its start consumed as the prefix (or the
    /// suffix) from one of its characters on, and the ranges of whole affixes, in order.
    struct Skips {
        var stepped = 0
        /// The prefix index reached by stepping (`from` + `stepped`).
        var prefixReached = 0
        var ranges: [Range<Int>] = []
        /// Whether the prefix was recognised (stepped over to its end, or found whole).
        var sawPrefix = false
    }

    /// The skips for `text` read from prefix index `from`, or from suffix index `suffixFrom` (both nil when
    /// reading does not start inside an affix).
    func skips(in text: String, steppingFrom from: Int?, suffixFrom: Int? = nil) -> Skips {
        var result = Skips(prefixReached: from ?? 0)
        guard !isEmpty, !text.isEmpty else { return result }
        // Stepping looks at no more of the text than the affix is long.
        if let from, !prefix.isEmpty {
            result.stepped = Self.repeated(prefix, from: from, atStartOf: text)
            result.prefixReached = from + result.stepped
            result.sawPrefix = result.prefixReached >= prefix.count
        } else if let suffixFrom, !suffix.isEmpty {
            result.stepped = Self.repeated(suffix, from: suffixFrom, atStartOf: text)
        }
        if result.stepped > 0 { result.ranges.append(0..<result.stepped) }
        var text = text
        let found = text.withUTF8 { bytes -> Bool in
            // On an ASCII text a byte is a character; a non-ASCII affix never occurs in it whole.
            guard EncodedText.isSingleByte(bytes) else { return false }
            findWhole(in: bytes, prefix: prefixBytes, suffix: suffixBytes, into: &result)
            return true
        }
        if !found { findWhole(in: Array(text), prefix: prefix, suffix: suffix, into: &result) }
        return result
    }

    /// How many characters at the start of `text` repeat `pattern` from its character `from` on.
    private static func repeated(_ pattern: [Character], from: Int, atStartOf text: String) -> Int {
        var count = 0
        for character in text {
            guard from + count < pattern.count, character == pattern[from + count] else { break }
            count += 1
        }
        return count
    }

    /// Adds to `result` the prefix's first whole occurrence after what was stepped over (unless the
    /// prefix was stepped over whole) and the suffix's last one after that.
    private func findWhole<C: RandomAccessCollection>(
        in text: C, prefix: [C.Element]?, suffix: [C.Element]?,
        into result: inout Skips
    )
    where C.Element: Equatable, C.Index == Int {
        var searchFrom = text.startIndex + result.stepped
        if !result.sawPrefix, let prefix, !prefix.isEmpty,
            let found = Self.occurrences(of: prefix, in: text, from: searchFrom, first: true)
        {
            result.ranges.append((found - text.startIndex)..<(found - text.startIndex + prefix.count))
            result.sawPrefix = true
            searchFrom = found + prefix.count
        }
        if let suffix, !suffix.isEmpty,
            let found = Self.occurrences(of: suffix, in: text, from: searchFrom, first: false)
        {
            result.ranges.append((found - text.startIndex)..<(found - text.startIndex + suffix.count))
        }
    }

    /// The start of the first (or last) occurrence of `pattern` in `text` at or after `from`, by
    /// Knuth-Morris-Pratt: linear in the text whatever the pattern.
    static func occurrences<C: RandomAccessCollection>(
        of pattern: [C.Element], in text: C, from: Int,
        first: Bool
    ) -> Int?
    where C.Element: Equatable, C.Index == Int {
        guard !pattern.isEmpty, text.endIndex - from >= pattern.count else { return nil }
        var failure = [Int](repeating: 0, count: pattern.count)
        var k = 0
        for i in 1..<max(pattern.count, 1) {
            while k > 0, pattern[i] != pattern[k] { k = failure[k - 1] }
            if pattern[i] == pattern[k] { k += 1 }
            failure[i] = k
        }
        var found: Int?
        var matched = 0
        var index = from
        while index < text.endIndex {
            let element = text[index]
            while matched > 0, element != pattern[matched] { matched = failure[matched - 1] }
            if element == pattern[matched] { matched += 1 }
            if matched == pattern.count {
                found = index - pattern.count + 1
                if first { return found }
                matched = failure[matched - 1]
            }
            index += 1
        }
        return found
    }
}
