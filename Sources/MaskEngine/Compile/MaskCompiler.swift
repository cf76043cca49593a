/// Turns a `MaskSpec` into a `Mask`: the one place that knows every form and option.
enum MaskCompiler {
    static func compile(_ spec: MaskSpec) throws -> Mask {
        if spec.blocks != nil {
            guard case .pattern = spec.form else { throw MaskError("'blocks' applies only to the pattern form") }
        }
        if spec.order != nil, spec.form != .preset("date"), spec.form != .preset("datetime") {
            throw MaskError("'order' applies only to the date and datetime presets")
        }
        if spec.min != nil || spec.max != nil, spec.form != .preset("date"), spec.form != .preset("datetime") {
            throw MaskError("'min' and 'max' apply only to the date and datetime presets (a number mask takes them in 'number')")
        }
        if spec.seconds != nil || spec.clock != nil, spec.form != .preset("time"), spec.form != .preset("datetime") {
            throw MaskError("'seconds' and 'clock' apply only to the time and datetime presets")
        }
        if spec.region != nil, spec.form != .preset("phone") {
            throw MaskError("'region' applies only to the phone preset")
        }
        switch spec.form {
        case .preset("phone"):
            return Mask(spec: spec, kind: .phone(try PhoneField(spec)), checks: ValueChecks())
        case .preset(let name):
            let expanded = try Presets.expand(name, options: spec)
            let checks = try valueChecks(expanded)
            switch name {
            case "card": return Mask(spec: spec, kind: .dynamic(try DynamicProgram.card(expanded)), checks: checks)
            case "iban": return Mask(spec: spec, kind: .dynamic(try DynamicProgram.iban(expanded)), checks: checks)
            case "id.cn": return Mask(spec: spec, kind: .slots(try Presets.program(name, expanded)), checks: checks)
            case "date", "time", "datetime", "expiry":
                return Mask(spec: spec, kind: .slots(try Presets.calendarProgram(name, expanded)), checks: checks)
            default:
                let inner = try compile(expanded)
                return Mask(spec: spec, kind: inner.kind, checks: checks)
            }
        case .number(let number):
            try NumberField.validate(number)
            return Mask(spec: spec, kind: .number(NumberField(number, placeholderChar: spec.placeholderChar ?? "_")),
                        checks: try valueChecks(spec))
        case .oneOf(let alternatives):
            let checks = try valueChecks(spec)
            if alternatives.isEmpty { throw MaskError("'oneOf' needs at least one mask") }
            var programs: [Program] = []
            for (i, alternative) in alternatives.enumerated() {
                if alternative.regex != nil || alternative.validate != nil {
                    throw MaskError("oneOf[\(i)]: 'regex' and 'validate' go on the oneOf, not on its alternatives")
                }
                do {
                    // Options on the `oneOf` object apply to every alternative that does not set them.
                    let inner = try Mask.compile(inherit(alternative, from: spec))
                    switch inner.kind {
                    case .slots(let program): programs.append(program)
                    case .oneOf(let nested): programs.append(contentsOf: nested)
                    case .number, .dynamic, .phone:
                        throw MaskError("only slot masks can be alternatives, not number masks or the card, iban and phone presets")
                    }
                } catch let error as MaskError {
                    throw MaskError("oneOf[\(i)]: \(error.message)", offset: error.offset)
                }
            }
            return Mask(spec: spec, kind: .oneOf(programs), checks: checks)
        default:
            let (elements, blocks) = try self.elementsAndBlocks(spec)
            try ProgramChecks.check(elements, letterCase: spec.letterCase)
            return Mask(spec: spec, kind: .slots(makeProgram(elements, spec, blocks: blocks)), checks: try valueChecks(spec))
        }
    }

    /// The elements of the slot forms, and the blocks of a `pattern`'s.
    static func elementsAndBlocks(_ spec: MaskSpec) throws -> (elements: [Element], blocks: [Block]) {
        if case .pattern(let pattern) = spec.form {
            return try FormCompiler.pattern(pattern, slot: spec.slot ?? "#", accept: SlotClass(spec.accept ?? .digits),
                                            blocks: spec.blocks ?? [:])
        }
        return (try elements(spec), [])
    }

    /// The elements of the slot forms (a `pattern`'s blocks become plain slots: see `elementsAndBlocks`).
    static func elements(_ spec: MaskSpec) throws -> [Element] {
        let accept = SlotClass(spec.accept ?? .digits)
        switch spec.form {
        case .notation(let notation):
            return try NotationCompiler.compile(notation)
        case .pattern:
            return try elementsAndBlocks(spec).elements
        case .groups(let sizes):
            return try FormCompiler.groups(sizes, separator: spec.separator ?? " ", accept: accept,
                                           minLength: spec.minLength, maxLength: spec.maxLength,
                                           repeats: spec.repeat ?? false)
        case .separatorAt(let positions):
            return try FormCompiler.separatorAt(positions, separator: spec.separator ?? " ", accept: accept,
                                                minLength: spec.minLength, maxLength: spec.maxLength)
        case .preset, .number, .oneOf:
            throw MaskError("a \(spec.form) mask has no slot elements")
        }
    }

    /// A program over `elements` with the options of `spec`.
    static func makeProgram(_ elements: [Element], _ spec: MaskSpec, asciiOnly: Bool = false, blocks: [Block] = [])
        -> Program {
        Program(elements: elements, eager: spec.eager ?? false, letterCase: spec.letterCase,
                placeholderChar: spec.placeholderChar ?? "_", asciiOnly: asciiOnly, blocks: blocks)
    }

    /// `alternative` with the options of the enclosing `oneOf` filled in where it has none.
    static func inherit(_ alternative: MaskSpec, from outer: MaskSpec) -> MaskSpec {
        var inner = alternative
        inner.eager = inner.eager ?? outer.eager
        inner.letterCase = inner.letterCase ?? outer.letterCase
        inner.placeholderChar = inner.placeholderChar ?? outer.placeholderChar
        inner.accept = inner.accept ?? outer.accept
        return inner
    }

    /// The `regex` and `validate` options as checks on the value.
    static func valueChecks(_ spec: MaskSpec) throws -> ValueChecks {
        var checks = ValueChecks()
        if let pattern = spec.regex {
            let regex: LinearRegex
            do {
                regex = try LinearRegex(pattern)
            } catch let error as MaskError {
                throw MaskError("regex: \(error.message)", offset: error.offset)
            }
            checks.viable = { regex.isViablePrefix($0) }
            checks.validators.append { regex.matches($0) ? nil : "does not match the pattern \(pattern)" }
        }
        for name in spec.validate ?? [] {
            guard let validator = Validator(rawValue: name) else {
                let known = Validator.allCases.map(\.rawValue).joined(separator: ", ")
                throw MaskError("unknown validator '\(name)'; known: \(known)")
            }
            checks.validators.append { validator.check($0) }
        }
        checks.onlyLuhn = spec.regex == nil && spec.validate == [Validator.luhn.rawValue]
        return checks
    }
}
