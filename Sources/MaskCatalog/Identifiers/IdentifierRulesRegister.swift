/// The rule of the German commercial register number (`de.handelsregisternummer`: `Aachen HRA 11223`,
/// `HRB 44123 Aachen`), which takes the text as typed (UTF-8: a court's name has umlauts) and has a twin of the same
/// name in `scripts/identifier_formats_register.py`, verified against stdnum. The courts and register types are
/// generated into `GermanCourts.swift`.
extension IdentifierRules {
    /// The rules of this file by name.
    static let registerRules: [String: Rule] = [
        "de.handelsregisternummer.check": { chars in germanRegisterNumber(chars) }
    ]

    /// The text read, with where each run of spaces ends, so a long run costs one pass, not one per place in it.
    private struct Text {
        let scalars: [Unicode.Scalar]
        let spaceRunEnds: [Int]

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
            var ends = [Int](repeating: scalars.count, count: scalars.count + 1)
            for i in stride(from: scalars.count - 1, through: 0, by: -1) {
                ends[i] = scalars[i] == " " ? ends[i + 1] : i
            }
            spaceRunEnds = ends
        }

        var count: Int { scalars.count }
        subscript(i: Int) -> Unicode.Scalar { scalars[i] }
    }

    private static let courtKeys = Set(germanCourtKeys.split(separator: " ").map { Array($0.utf8) })
    private static let registerTypes: [[Unicode.Scalar]] = germanRegisterTypes.split(separator: " ").map {
        $0.unicodeScalars.map(lowercased)
    }

    /// German register number: read, as stdnum reads it, as register type, number and court when the text starts so
    /// (whatever the court), else as court, register type and number; valid when the court is one of the register
    /// courts, its name compared in lower case, umlauts as their vowels, only the letters a to z kept.
    static func germanRegisterNumber(_ chars: [UInt8]) -> Bool {
        var text = Array(String(decoding: chars, as: UTF8.self).unicodeScalars)
        while text.last == " " { text.removeLast() }
        let s = Text(Array(text.drop { $0 == " " }))
        guard let court = registryFirst(s) ?? courtFirst(s) else { return false }
        return courtKeys.contains(courtKey(court))
    }

    /// The court of `s` read as register type, number, an optional qualifier of one to three letters, an optional
    /// comma and the court, or nil. The qualifier takes as many letters as leave a separator after them: in
    /// `HRB 5 Bad Hersfeld` it is `Bad`, and the court `Hersfeld`.
    private static func registryFirst(_ s: Text) -> ArraySlice<Unicode.Scalar>? {
        guard let type = registryEnd(s, 0), spacesEnd(s, type) > type, let number = numberEnd(s, spacesEnd(s, type))
        else { return nil }
        let start = spacesEnd(s, number)
        var letters = start
        while letters < s.count, letters - start < 3, isQualifier(s[letters]) { letters += 1 }
        for end in stride(from: letters, to: start, by: -1) {
            if let court = afterSeparator(s, end) { return s.scalars[court...] }
        }
        return afterSeparator(s, number).map { s.scalars[$0...] }
    }

    /// The court of `s` read as court, register type, number and optional qualifier: the longest start after which
    /// the rest is one (`Aachen, HRB 5` has the court `Aachen,`), or nil. The rest holds at most `tailLetters`
    /// characters other than spaces.
    private static func courtFirst(_ s: Text) -> ArraySlice<Unicode.Scalar>? {
        var others = 0
        for end in stride(from: s.count, through: 0, by: -1) {
            if end < s.count && s[end] != " " { others += 1 }
            if others > tailLetters { break }
            if isRegisterTail(s, end) { return s.scalars[..<end] }
        }
        return nil
    }

    /// The most characters other than spaces after a court: a comma, the longest register type, six digits and a
    /// qualifier of three letters.
    private static let tailLetters = 1 + (registerTypes.map(\.count).max() ?? 0) + 6 + 3

    /// Whether `s` from `i` is an optional comma, spaces, a register type, spaces, a number and an optional
    /// qualifier (spaces allowed before it), to its end.
    private static func isRegisterTail(_ s: Text, _ i: Int) -> Bool {
        let afterComma = i < s.count && s[i] == "," ? i + 1 : i
        let typeStart = spacesEnd(s, afterComma)
        guard typeStart > afterComma, let type = registryEnd(s, typeStart), spacesEnd(s, type) > type,
            let number = numberEnd(s, spacesEnd(s, type))
        else { return false }
        if number == s.count { return true }
        let start = spacesEnd(s, number)
        return (1...3).contains(s.count - start) && s.scalars[start...].allSatisfy(isQualifier)
    }

    /// Where the spaces from `i` end.
    private static func spacesEnd(_ s: Text, _ i: Int) -> Int { s.spaceRunEnds[i] }

    /// The end of a register type (in any case) at `i`, or nil.
    private static func registryEnd(_ s: Text, _ i: Int) -> Int? {
        for type in registerTypes where i + type.count <= s.count {
            if zip(type, s.scalars[i...]).allSatisfy({ $0 == lowercased($1) }) { return i + type.count }
        }
        return nil
    }

    /// The end of a register number at `i` (a digit 1 to 9 and up to five more digits), or nil.
    private static func numberEnd(_ s: Text, _ i: Int) -> Int? {
        guard i < s.count, ("1"..."9").contains(s[i]) else { return nil }
        var j = i + 1
        while j < s.count, j - i < 6, ("0"..."9").contains(s[j]) { j += 1 }
        return j
    }

    /// Where what follows an optional comma and at least one space at `i` starts, or nil.
    private static func afterSeparator(_ s: Text, _ i: Int) -> Int? {
        let space = i < s.count && s[i] == "," ? i + 1 : i
        guard space < s.count, s[space] == " " else { return nil }
        return spacesEnd(s, space)
    }

    /// A qualifier's letter: A to Z or Ö, in either case.
    private static func isQualifier(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(lowercased(c)) || c == "Ö" || c == "ö"
    }

    private static func lowercased(_ c: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(c) ? Unicode.Scalar(c.value + 32)! : c
    }

    /// A court's name as compared: lower case, an umlaut as its vowel, only the letters a to z kept (ß, digits,
    /// spaces and punctuation dropped).
    private static func courtKey(_ court: ArraySlice<Unicode.Scalar>) -> [UInt8] {
        var key: [UInt8] = []
        for c in court {
            let folded: Unicode.Scalar
            switch c {
            case "ä", "Ä": folded = "a"
            case "ö", "Ö": folded = "o"
            case "ü", "Ü": folded = "u"
            default: folded = lowercased(c)
            }
            if ("a"..."z").contains(folded) { key.append(UInt8(folded.value)) }
        }
        return key
    }
}
