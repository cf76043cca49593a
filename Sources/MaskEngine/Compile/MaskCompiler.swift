/// Turns a `MaskSpec` into a `Mask`: the one place that knows every form and option.
enum MaskCompiler {
    static func compile(_ spec: MaskSpec) throws -> Mask {
        let checks = try valueChecks(spec)
        switch spec.form {
        case .oneOf(let alternatives):
            if alternatives.isEmpty { throw MaskError("'oneOf' needs at least one mask") }
            var programs: [Program] = []
            for (i, alternative) in alternatives.enumerated() {
                do {
                    // Options on the `oneOf` object apply to every alternative that does not set them.
                    let inner = try Mask.compile(inherit(alternative, from: spec))
                    programs.append(contentsOf: inner.programs)
                } catch let error as MaskError {
                    throw MaskError("oneOf[\(i)]: \(error.message)", offset: error.offset)
                }
            }
            return Mask(spec: spec, kind: .oneOf(programs), checks: checks)
        default:
            return Mask(spec: spec, kind: .slots(try program(spec)), checks: checks)
        }
    }

    /// The slot program of every form but `oneOf`.
    static func program(_ spec: MaskSpec) throws -> Program {
        let accept = SlotClass(spec.accept ?? .digits)
        let elements: [Element]
        switch spec.form {
        case .notation(let notation):
            elements = try NotationCompiler.compile(notation)
        case .pattern(let pattern):
            elements = try FormCompiler.pattern(pattern, slot: spec.slot ?? "#", accept: accept)
        case .groups(let sizes):
            elements = try FormCompiler.groups(sizes, separator: spec.separator ?? " ", accept: accept,
                                               minLength: spec.minLength, maxLength: spec.maxLength,
                                               repeats: spec.repeat ?? false)
        case .separatorAt(let positions):
            elements = try FormCompiler.separatorAt(positions, separator: spec.separator ?? " ", accept: accept,
                                                    minLength: spec.minLength, maxLength: spec.maxLength)
        case .preset(let name):
            throw MaskError("unknown preset '\(name)'")
        case .number:
            throw MaskError("number masks are not available yet")
        case .oneOf:
            throw MaskError("'oneOf' cannot be nested here")
        }
        try ProgramChecks.check(elements)
        return Program(elements: elements, eager: spec.eager ?? false, letterCase: spec.letterCase,
                       placeholderChar: spec.placeholderChar ?? "_")
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
        return checks
    }
}
