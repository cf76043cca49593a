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
        guard !isEmpty, !text.isEmpty else { return Skips(prefixReached: from ?? 0) }
        var text = text
        let ascii = text.withUTF8 { bytes -> Skips? in
            // A non-ASCII affix never occurs whole in an ASCII text, but its ASCII start may be stepped over.
            guard prefixBytes != nil, suffixBytes != nil, EncodedText.isSingleByte(bytes) else { return nil }
            return skips(in: bytes, prefix: prefixBytes, suffix: suffixBytes, steppingFrom: from, suffixFrom: suffixFrom)
        }
        if let ascii { return ascii }
        return skips(in: Array(text), prefix: prefix, suffix: suffix, steppingFrom: from, suffixFrom: suffixFrom)
    }

    private func skips<C: RandomAccessCollection>(in text: C, prefix: [C.Element]?, suffix: [C.Element]?,
                                                  steppingFrom from: Int?, suffixFrom: Int?) -> Skips
    where C.Element: Equatable, C.Index == Int {
        var result = Skips(prefixReached: from ?? 0)
        var searchFrom = text.startIndex
        /// Consumes the characters at the start of `text` that repeat `pattern` from `index` on.
        func step(_ pattern: [C.Element], from index: Int) -> Int {
            var index = index
            while index < pattern.count, searchFrom < text.endIndex, text[searchFrom] == pattern[index] {
                index += 1
                searchFrom += 1
            }
            result.stepped = searchFrom - text.startIndex
            if result.stepped > 0 { result.ranges.append(0..<result.stepped) }
            return index
        }
        if let from, let prefix {
            result.prefixReached = step(prefix, from: from)
            result.sawPrefix = result.prefixReached == prefix.count && !prefix.isEmpty
        } else if let suffixFrom, let suffix {
            _ = step(suffix, from: suffixFrom)
        }
        if !result.sawPrefix, let prefix, !prefix.isEmpty,
           let found = Self.occurrences(of: prefix, in: text, from: searchFrom, first: true) {
            result.ranges.append((found - text.startIndex)..<(found - text.startIndex + prefix.count))
            result.sawPrefix = true
            searchFrom = found + prefix.count
        }
        if let suffix, !suffix.isEmpty, let found = Self.occurrences(of: suffix, in: text, from: searchFrom, first: false) {
            result.ranges.append((found - text.startIndex)..<(found - text.startIndex + suffix.count))
        }
        return result
    }

    /// The start of the first (or last) occurrence of `pattern` in `text` at or after `from`, by
    /// Knuth-Morris-Pratt: linear in the text whatever the pattern.
    static func occurrences<C: RandomAccessCollection>(of pattern: [C.Element], in text: C, from: Int,
                                                        first: Bool) -> Int?
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
