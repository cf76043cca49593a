/// The best a program's reading of a text can reach, known from the text's length and a few of its characters
/// without reading it, so that a `oneOf` skips the alternatives that cannot beat its best reading so far
/// (`Mask.format`, `Mask.bestProgram`): a French RCS number has 30 alternatives, one per length of the court's
/// name, and most of them cannot hold what is typed.
struct ReadingBound: Sendable {
    /// The most cells a reading holds (`Int.max` with a `…` slot).
    private let slots: Int
    /// A text of n units gives at most n cells: false when a block may pad a value with cells nobody typed.
    private let cellPerUnit: Bool
    /// Where every element is one character (a required slot, holding one cell, or a one-byte literal), slots fill
    /// in order and a text the program renders holds element `e` at offset `e`: then, for each element, the ASCII
    /// bytes that may stand there (a literal's own; those a slot stores as they are). Nil for other programs, whose
    /// texts no offset pins.
    private let places: [(bytes: ASCIISet, literal: Bool)]?

    /// - Parameter stored: what a slot of the class stores for an ASCII byte (nil: it refuses it).
    init(_ elements: [Element], hasBlocks: Bool, stored: (SlotClass, UInt8) -> UInt8?) {
        let repeats = elements.contains(where: \.repeats)
        slots = repeats ? Int.max : elements.count(where: \.isSlot)
        cellPerUnit = !hasBlocks
        let oneCharacterEach = elements.allSatisfy { $0.isSlot ? $0.isRequiredSlot : $0.literalByte != 0 }
        guard oneCharacterEach, !hasBlocks, !repeats, !elements.contains(where: { $0.literal == "\r" }) else {
            places = nil
            return
        }
        // Each class's bytes are found once: a program's slots share a class or two, and every preset of every
        // thread that formats lines compiles its programs.
        var classBytes: [(SlotClass, ASCIISet)] = []
        places = elements.map { element in
            var bytes = ASCIISet()
            if let slotClass = element.slotClass {
                if let known = classBytes.first(where: { $0.0 == slotClass }) {
                    bytes = known.1
                } else {
                    for byte in UInt8(1)..<0x80 where stored(slotClass, byte) == byte { bytes.insert(byte) }
                    classBytes.append((slotClass, bytes))
                }
            } else {
                bytes.insert(element.literalByte)
            }
            return (bytes, !element.isSlot)
        }
    }

    /// The most cells reading `count` units can give.
    func mostCells(reading count: Int) -> Int { cellPerUnit ? min(count, slots) : slots }

    /// Whether the program may render `chars` exactly (false means it never does, whatever it reads).
    func mayRender<U: FieldUnit>(_ chars: [U]) -> Bool {
        guard let places else { return true }
        if chars.count > places.count { return false }
        for (offset, c) in chars.enumerated() {
            if let byte = c.asciiByte {
                if !places[offset].bytes.contains(byte) { return false }
            } else if places[offset].literal {
                return false
            }
        }
        return true
    }
}
