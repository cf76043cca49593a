/// Turns a `MaskSpec` into a `Mask`: the one place that knows every form and option; a preset is compiled by
/// the `MaskPresets` given.
package enum MaskCompiler {
    package static func compile(_ spec: MaskSpec, presets: any MaskPresets = NoPresets()) throws -> Mask {
        if spec.blocks != nil {
            guard case .pattern = spec.form else { throw MaskError("'blocks' applies only to the pattern form") }
        }
        if spec.order != nil, spec.form != .preset("date"), spec.form != .preset("datetime") {
            throw MaskError("'order' applies only to the date and datetime presets")
        }
        if spec.min != nil || spec.max != nil, spec.form != .preset("date"), spec.form != .preset("datetime") {
            throw MaskError(
                "'min' and 'max' apply only to the date and datetime presets (a number mask takes them in 'number')")
        }
        if spec.seconds != nil || spec.clock != nil, spec.form != .preset("time"), spec.form != .preset("datetime") {
            throw MaskError("'seconds' and 'clock' apply only to the time and datetime presets")
        }
        if spec.region != nil, spec.form != .preset("phone"), spec.form != .preset("postal") {
            throw MaskError("'region' applies only to the phone and postal presets")
        }
        try checkModes(spec)
        switch spec.form {
        case .preset(let name):
            return try presets.compile(preset: name, spec)
        case .number(let number):
            try NumberField.validate(number)
            return Mask(
                spec: spec, kind: .number(NumberField(number, placeholderChar: spec.placeholderChar ?? "_")),
                checks: try valueChecks(spec))
        case .oneOf(let alternatives):
            let checks = try valueChecks(spec)
            if alternatives.isEmpty { throw MaskError("'oneOf' needs at least one mask") }
            var programs: [Program] = []
            for (i, alternative) in alternatives.enumerated() {
                if alternative.rightToLeft == true {
                    throw MaskError("oneOf[\(i)]: 'rightToLeft' does not apply to the alternatives of a oneOf")
                }
                if alternative.regex != nil || alternative.validate != nil {
                    throw MaskError("oneOf[\(i)]: 'regex' and 'validate' go on the oneOf, not on its alternatives")
                }
                do {
                    // Options on the `oneOf` object apply to every alternative that does not set them.
                    let inner = try Mask.compile(inherit(alternative, from: spec), presets: presets)
                    switch inner.kind {
                    case .slots(let program): programs.append(program)
                    case .oneOf(let nested): programs.append(contentsOf: nested)
                    case .number, .dynamic, .custom:
                        throw MaskError(
                            "only slot masks can be alternatives, not number masks or the card, iban, phone and postal presets"
                        )
                    }
                } catch let error as MaskError {
                    throw MaskError("oneOf[\(i)]: \(error.message)", offset: error.offset)
                }
            }
            return Mask(spec: spec, kind: .oneOf(programs), checks: checks)
        default:
            // The definitions are read once here, for the elements, the checks and the program.
            let definitions = try self.definitions(spec)
            let (elements, blocks) = try self.elementsAndBlocks(spec, definitions: definitions)
            try ProgramChecks.check(elements, letterCase: spec.letterCase, definitions: definitions)
            let checks = try valueChecks(spec)
            if spec.rightToLeft == true {
                let mirrored = try RightToLeft.mirroredElements(elements, blocks: blocks)
                try ProgramChecks.check(mirrored, letterCase: spec.letterCase, definitions: definitions)
                // Overwrite is applied in reading order, by `Mask.applyRightToLeft`, never by the reversed program.
                var reversedSpec = spec
                reversedSpec.overwrite = false
                let program = makeProgram(
                    mirrored, reversedSpec, blocks: blocks, reversed: true, definitions: definitions)
                return Mask(
                    spec: spec, kind: .slots(program), checks: RightToLeft.mirroredChecks(checks),
                    rightToLeft: Program.canonicalNotation(elements, definitions: definitions))
            }
            let program = makeProgram(elements, spec, blocks: blocks, definitions: definitions)
            return Mask(spec: spec, kind: .slots(program), checks: checks)
        }
    }

    /// The forms each mode applies to: overwrite to every slot mask (presets of slots and `oneOf`
    /// included), right-to-left and definitions to the four slot forms (definitions also to `oneOf`,
    /// whose alternatives take them).
    private static func checkModes(_ spec: MaskSpec) throws {
        let slotForm: Bool
        switch spec.form {
        case .notation, .pattern, .groups, .separatorAt: slotForm = true
        default: slotForm = false
        }
        if spec.rightToLeft == true, !slotForm {
            throw MaskError("'rightToLeft' applies to the notation, pattern, groups and separatorAt forms")
        }
        if spec.definitions != nil, !slotForm, !isOneOf(spec) {
            throw MaskError("'definitions' applies to the notation, pattern, groups and separatorAt forms")
        }
        if spec.acceptDefinition != nil, spec.definitions == nil {
            throw MaskError("'accept' names a definition, but the mask has no 'definitions'")
        }
        if spec.overwrite == true {
            switch spec.form {
            case .number, .preset("amount"), .preset("phone"):
                throw MaskError("'overwrite' applies to slot masks, not to number masks or the phone preset")
            default: break
            }
        }
    }

    private static func isOneOf(_ spec: MaskSpec) -> Bool {
        if case .oneOf = spec.form { return true }
        return false
    }

    /// The mask's own slot characters, in the order of their names (`SlotClass.defined(i)` is the i-th).
    static func definitions(_ spec: MaskSpec) throws -> [SlotDefinition] {
        guard let defined = spec.definitions else { return [] }
        if defined.count > maximumDefinitions {
            throw MaskError("definitions: at most \(maximumDefinitions) slot characters, got \(defined.count)")
        }
        return try defined.keys.sorted().map { name in
            do {
                return try SlotDefinition(name: name, defined[name]!)
            } catch let error as MaskError where SlotDefinition.reserved.contains(name) {
                // The offset of the first place the mask uses the character, where the clash is.
                var text = ""
                switch spec.form {
                case .notation(let notation): text = notation
                case .pattern(let pattern): text = pattern
                default: break
                }
                throw MaskError(
                    error.message,
                    offset: text.firstIndex(of: name).map { text.distance(from: text.startIndex, to: $0) } ?? 0)
            }
        }
    }

    /// The most definitions a mask may have (each is a slot class of its program).
    static let maximumDefinitions = 64

    /// The class `accept` names for the slots of `pattern`, `groups` and `separatorAt`.
    private static func acceptClass(_ spec: MaskSpec, _ defined: [SlotDefinition]) throws -> SlotClass {
        if let name = spec.acceptDefinition {
            guard let i = defined.firstIndex(where: { $0.name == name }) else {
                throw MaskError("'accept' names '\(name)', which 'definitions' does not define")
            }
            return .defined(UInt8(i))
        }
        return SlotClass(spec.accept ?? .digits)
    }

    /// The elements of the slot forms, and the blocks of a `pattern`'s.
    /// - Parameter definitions: `definitions(spec)`, when the caller has read them.
    static func elementsAndBlocks(_ spec: MaskSpec, definitions: [SlotDefinition]? = nil) throws
        -> (elements: [Element], blocks: [Block])
    {
        let defined = try definitions ?? self.definitions(spec)
        if case .pattern(let pattern) = spec.form {
            var slots: [Character: (SlotClass, Bool)] = [:]
            for (i, definition) in defined.enumerated() {
                slots[definition.name] = (.defined(UInt8(i)), definition.isOptional)
            }
            return try FormCompiler.pattern(
                pattern, slot: spec.slot ?? "#", accept: try acceptClass(spec, defined),
                blocks: spec.blocks ?? [:], definitions: slots)
        }
        return (try elements(spec, definitions: defined), [])
    }

    /// The elements of the slot forms (a `pattern`'s blocks become plain slots: see `elementsAndBlocks`).
    /// - Parameter definitions: `definitions(spec)`, when the caller has read them.
    package static func elements(_ spec: MaskSpec, definitions: [SlotDefinition]? = nil) throws -> [Element] {
        let definitions = try definitions ?? self.definitions(spec)
        let accept = try acceptClass(spec, definitions)
        switch spec.form {
        case .notation(let notation):
            var defined: [Character: (index: UInt8, optional: Bool)] = [:]
            for (i, definition) in definitions.enumerated() {
                defined[definition.name] = (UInt8(i), definition.isOptional)
            }
            return try NotationCompiler.compile(notation, definitions: defined)
        case .pattern:
            return try elementsAndBlocks(spec, definitions: definitions).elements
        case .groups(let sizes):
            return try FormCompiler.groups(
                sizes, separator: spec.separator ?? " ", accept: accept,
                minLength: spec.minLength, maxLength: spec.maxLength,
                repeats: spec.repeat ?? false)
        case .separatorAt(let positions):
            return try FormCompiler.separatorAt(
                positions, separator: spec.separator ?? " ", accept: accept,
                minLength: spec.minLength, maxLength: spec.maxLength)
        case .preset, .number, .oneOf:
            throw MaskError("a \(spec.form) mask has no slot elements")
        }
    }

    /// A program over `elements` with the options of `spec`.
    /// - Parameters:
    ///   - reversed: the program of a right-to-left mask, compiled from its elements reversed.
    ///   - definitions: `definitions(spec)`, when the caller has read them.
    package static func makeProgram(
        _ elements: [Element], _ spec: MaskSpec, asciiOnly: Bool = false, blocks: [Block] = [],
        reversed: Bool = false, definitions: [SlotDefinition]? = nil
    ) -> Program {
        // The definitions were read when the elements were made; reading them again cannot fail.
        Program(
            elements: elements, eager: spec.eager ?? false, letterCase: spec.letterCase,
            placeholderChar: spec.placeholderChar ?? "_", asciiOnly: asciiOnly, blocks: blocks,
            overwrite: spec.overwrite ?? false, definitions: definitions ?? (try? self.definitions(spec)) ?? [],
            showsOnlyEagerTrailingLiterals: reversed)
    }

    /// `alternative` with the options of the enclosing `oneOf` filled in where it has none.
    static func inherit(_ alternative: MaskSpec, from outer: MaskSpec) -> MaskSpec {
        var inner = alternative
        inner.eager = inner.eager ?? outer.eager
        inner.letterCase = inner.letterCase ?? outer.letterCase
        inner.placeholderChar = inner.placeholderChar ?? outer.placeholderChar
        inner.accept = inner.accept ?? outer.accept
        inner.overwrite = inner.overwrite ?? outer.overwrite
        inner.definitions = inner.definitions ?? outer.definitions
        if inner.accept == nil { inner.acceptDefinition = inner.acceptDefinition ?? outer.acceptDefinition }
        return inner
    }

    /// The `regex` and `validate` options as checks on the value.
    package static func valueChecks(_ spec: MaskSpec) throws -> ValueChecks {
        var checks = ValueChecks()
        if let pattern = spec.regex {
            let regex: LinearRegex
            do {
                regex = try LinearRegex(pattern)
            } catch let error as MaskError {
                throw MaskError("regex: \(error.message)", offset: error.offset)
            }
            checks.viable = { regex.isViablePrefix($0) }
            checks.validators.append(.text { regex.matches($0) ? nil : "does not match the pattern \(pattern)" })
        }
        for name in spec.validate ?? [] {
            guard let validator = Validator(rawValue: name) else {
                let known = Validator.allCases.map(\.rawValue).joined(separator: ", ")
                throw MaskError("unknown validator '\(name)'; known: \(known)")
            }
            checks.validators.append(.text { validator.check($0) })
        }
        checks.onlyLuhn = spec.regex == nil && spec.validate == [Validator.luhn.rawValue]
        return checks
    }
}
