extension NumberField {
    /// One inserted text being read, a character at a time (`take`): the elements it adds, its signs and
    /// dropped zeros, and what it cuts or refuses. A struct, not closures over local variables, so that the
    /// loop over a pasted megabyte touches no heap-boxed variable.
    struct Reading {
        let spec: NumberSpec
        /// The UTF-8 of the decimal mark, written when a mark is cut.
        let decimalUTF8: [UInt8]
        /// How many entered elements stand before the edit point, and how many more the field has room for.
        let keptBefore: Int
        let room: Int
        var negative: Bool
        var signPositions: [Int] = []
        var droppedZeros: [Int] = []
        var markSeen: Bool
        /// A decimal mark cut the rest (`fraction` is 0, or the field is full): every digit after it is cut.
        var cutRest = false
        var readIn: [Element] = []
        /// What reading cut, as UTF-8. It comes after every element read in (reading stops growing once it
        /// cuts), so it is one run in text order, after the pieces keyed up to `cutKey` (see `read`).
        var cutWhileReading: [UInt8] = []
        var cutKey = 0
        /// Leading zeros are dropped anyway: past the first one read in, they take no room (a paste of
        /// 20,000 zeros and a 5 is 5).
        var onlyZeros: Bool
        var zeroRead = false

        @inline(__always)
        mutating func cut(digit: UInt8) {
            if cutWhileReading.isEmpty { cutKey = keptBefore + readIn.count - 1 }
            cutWhileReading.append(0x30 + digit)
        }

        mutating func cutMark() {
            if cutWhileReading.isEmpty { cutKey = keptBefore + readIn.count - 1 }
            cutWhileReading.append(contentsOf: decimalUTF8)
        }

        /// Whether nothing more can be read in: every digit and mark is cut from here on (the field is
        /// full, or a mark cut the rest) and no leading zero is still dropped. What follows only needs sorting.
        var isFull: Bool { cutRest || (readIn.count >= room && !onlyZeros) }

        /// Reads ASCII `bytes` (a byte is a character there), each byte's kind looked up in `kinds`;
        /// what is refused goes to `rejected`. Once the field is full the rest is only sorted (`sortRest`),
        /// as the slot path does: a pasted megabyte costs one cheap pass.
        mutating func take(bytes: UnsafeBufferPointer<UInt8>, kinds: [ReadKind], offset: Int, rejected: inout [UInt8]) {
            kinds.withUnsafeBufferPointer { kinds in
                for (position, byte) in bytes.enumerated() {
                    if isFull, bytes.count - position >= Self.sortedRestMinimum {
                        sortRest(bytes, from: position, kinds: kinds, offset: offset, rejected: &rejected)
                        return
                    }
                    if take(kinds[Int(byte)], at: offset + position) { rejected.append(byte) }
                }
            }
        }

        /// Below this many bytes the rest is read by `take` like the rest of the text (a keystroke).
        static let sortedRestMinimum = 64

        /// What `take` does with each byte from `start` on, once `isFull`: a digit is cut, the first mark is
        /// cut and any other refused, signs still count, separators are dropped, anything else is refused.
        /// One pass writing into buffers sized for the rest, with no element built and no array grown.
        mutating func sortRest(
            _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, kinds: UnsafeBufferPointer<ReadKind>,
            offset: Int, rejected: inout [UInt8]
        ) {
            WorkCounter.count(bytes.count - start)
            let rest = bytes.count - start
            var refused: [UInt8] = []
            let cut = [UInt8](unsafeUninitializedCapacity: rest + decimalUTF8.count) { cut, cutCount in
                refused = [UInt8](unsafeUninitializedCapacity: rest) { refused, refusedCount in
                    var c = 0, r = 0
                    for position in start..<bytes.count {
                        let byte = bytes[position]
                        switch kinds[Int(byte)] {
                        case .digit:
                            cut[c] = byte
                            c += 1
                        case .group:
                            break
                        case .mark where !markSeen:
                            markSeen = true
                            cutRest = true
                            for b in decimalUTF8 {
                                cut[c] = b
                                c += 1
                            }
                        case .minus where spec.negative:
                            negative.toggle()
                            signPositions.append(offset + position)
                        case .plus where spec.negative:
                            negative = false
                        case .mark, .minus, .plus, .other:
                            refused[r] = byte
                            r += 1
                        }
                    }
                    refusedCount = r
                    cutCount = c
                }
            }
            if cutWhileReading.isEmpty, !cut.isEmpty { cutKey = keptBefore + readIn.count - 1 }
            cutWhileReading += cut
            rejected += refused
        }

        /// Reads one character of kind `kind` at `position`.
        /// - Returns: whether it is refused (the caller reports it in `rejected`).
        @inline(__always)
        mutating func take(_ kind: ReadKind, at position: Int) -> Bool {
            WorkCounter.count()
            switch kind {
            case .digit(let digit):
                if onlyZeros, digit == 0, !cutRest {
                    if zeroRead {
                        droppedZeros.append(position)
                        return false
                    }
                    zeroRead = true
                } else {
                    onlyZeros = false
                }
                if cutRest || readIn.count >= room {
                    cut(digit: digit)
                } else {
                    readIn.append(Element(digit: digit, origin: .inserted, position: position))
                }
            case .mark:
                onlyZeros = false
                if markSeen { return true }
                markSeen = true
                if spec.fraction == 0 || readIn.count >= room {
                    cutRest = true
                    cutMark()
                } else {
                    readIn.append(Element(digit: nil, origin: .inserted, position: position))
                }
            case .group:
                break
            case .minus:
                guard spec.negative else { return true }
                negative.toggle()
                signPositions.append(position)
            case .plus:
                guard spec.negative else { return true }
                negative = false
            case .other:
                return true
            }
            return false
        }
    }
}
