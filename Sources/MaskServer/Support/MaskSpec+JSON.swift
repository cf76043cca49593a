// maskd: the JSON `MaskSpec` of Protocol/masks.md, read into the engine's `MaskSpec`.
import JSON
import MaskCatalog
import MaskEngine
import Synchronization

extension MaskSpec {
    /// The forms an object spec may name, exactly one at a time.
    static let formKeys = ["notation", "pattern", "groups", "separatorAt", "preset", "oneOf", "number"]
    /// The options allowed beside any form.
    static let optionKeys = [
        "slot", "accept", "separator", "minLength", "maxLength", "repeat", "eager", "case",
        "regex", "validate", "placeholderChar", "blocks", "order", "region", "overwrite",
        "rightToLeft", "definitions", "min", "max", "seconds", "clock",
    ]

    /// Reads a JSON mask: a string (bracket notation) or an object with one form and options.
    /// - Parameter path: where the mask sits in the params, for error messages (`params.mask`).
    /// - Throws: `MessageError` `-32602` naming the bad key, form or type.
    static func fromJSON(_ value: JSONValue, path: String) throws -> MaskSpec {
        switch value {
        case .string(let notation):
            return .notation(notation)
        case .object(let object):
            return try fromObject(object, path: path)
        default:
            throw MessageError.invalidParams("\(path): a mask is a string or an object, got \(value.kindName)")
        }
    }

    private static func fromObject(_ object: JSONObject, path: String) throws -> MaskSpec {
        for key in object.keys where !formKeys.contains(key) && !optionKeys.contains(key) {
            throw MessageError.invalidParams("\(path): unknown key '\(key)'")
        }
        let forms = object.keys.filter { formKeys.contains($0) }
        guard forms.count == 1 else {
            if forms.isEmpty {
                throw MessageError.invalidParams(
                    "\(path): a mask object needs one of \(formKeys.joined(separator: ", "))")
            }
            throw MessageError.invalidParams(
                "\(path): a mask object takes exactly one form, got \(forms.map { "'\($0)'" }.joined(separator: " and "))"
            )
        }
        let p = Params(object: object, path: path)
        let key = forms[0]
        let form: Form
        switch key {
        case "notation": form = .notation(try p.string(key))
        case "pattern": form = .pattern(try p.string(key))
        case "preset": form = .preset(try p.string(key))
        case "groups": form = .groups(try integers(p, key))
        case "separatorAt": form = .separatorAt(try integers(p, key))
        case "oneOf":
            let items = try p.array(key)
            guard !items.isEmpty else { throw MessageError.invalidParams("\(p.name(key)): needs at least one mask") }
            form = .oneOf(try items.enumerated().map { try fromJSON($1, path: "\(p.name(key))[\($0)]") })
        default:
            form = .number(try number(try p.object(key)))
        }
        var spec = MaskSpec(form)
        spec.slot = try character(p, "slot")
        if let definitions = try p.optionalObject("definitions") {
            var defined: [Character: String] = [:]
            for key in definitions.object.keys {
                guard key.count == 1, let c = key.first else {
                    throw MessageError.invalidParams("\(definitions.name(key)): a definition is named by one character")
                }
                defined[c] = try definitions.string(key)
            }
            spec.definitions = defined
        }
        if let accept = try p.optionalString("accept") {
            if let c = CharacterClass(rawValue: accept) {
                spec.accept = c
            } else if accept.count == 1, let c = accept.first, spec.definitions?[c] != nil {
                // A one-character `accept` may name one of the mask's own definitions.
                spec.acceptDefinition = c
            } else {
                throw MessageError.invalidParams(
                    "\(p.name("accept")): unknown class '\(accept)' (one of "
                        + CharacterClass.allCases.map(\.rawValue).joined(separator: ", ")
                        + ", or a key of 'definitions')")
            }
        }
        spec.separator = try p.optionalString("separator")
        spec.minLength = try p.optionalInt("minLength")
        spec.maxLength = try p.optionalInt("maxLength")
        spec.repeat = try p.optionalBool("repeat")
        spec.eager = try p.optionalBool("eager")
        if let c = try p.optionalString("case") {
            guard let letterCase = LetterCase(rawValue: c) else {
                throw MessageError.invalidParams("\(p.name("case")): expected \"upper\" or \"lower\", got '\(c)'")
            }
            spec.letterCase = letterCase
        }
        spec.regex = try p.optionalString("regex")
        if let validate = p.value("validate") {
            switch validate {
            case .string(let name): spec.validate = [name]
            case .array(let items):
                spec.validate = try items.map {
                    guard let s = $0.stringValue else { throw p.typeError("validate", "an array of strings", validate) }
                    return s
                }
            default: throw p.typeError("validate", "a string or an array of strings", validate)
            }
        }
        spec.placeholderChar = try character(p, "placeholderChar")
        if let blocks = try p.optionalObject("blocks") {
            var named: [String: BlockSpec] = [:]
            for key in blocks.object.keys { named[key] = try block(try blocks.object(key)) }
            spec.blocks = named
        }
        spec.order = try p.optionalString("order")
        spec.region = try p.optionalString("region")
        spec.overwrite = try p.optionalBool("overwrite")
        spec.rightToLeft = try p.optionalBool("rightToLeft")
        spec.min = try p.optionalString("min")
        spec.max = try p.optionalString("max")
        spec.seconds = try p.optionalBool("seconds")
        spec.clock = try p.optionalInt("clock")
        return spec
    }

    /// One named block: `{"range": [1, 12], "pad": false}` or `{"enum": ["AM", "PM"]}`.
    private static func block(_ p: Params) throws -> BlockSpec {
        for key in p.object.keys where !["range", "enum", "pad"].contains(key) {
            throw MessageError.invalidParams("\(p.path): unknown key '\(key)'")
        }
        let pad = try p.optionalBool("pad")
        switch (p.value("range"), p.value("enum")) {
        case (let range?, nil):
            guard let items = range.arrayValue, items.count == 2, let low = items[0].intValue,
                let high = items[1].intValue
            else { throw p.typeError("range", "[min, max], two integers", range) }
            return BlockSpec(.range(min: low, max: high), pad: pad)
        case (nil, let words?):
            let list = words.arrayValue?.compactMap(\.stringValue) ?? []
            guard list.count == words.arrayValue?.count else { throw p.typeError("enum", "an array of strings", words) }
            if pad != nil { throw MessageError.invalidParams("\(p.name("pad")): applies to a range block only") }
            return BlockSpec(.words(list))
        case (nil, nil):
            throw MessageError.invalidParams("\(p.path): a block needs 'range' or 'enum'")
        default:
            throw MessageError.invalidParams("\(p.path): a block takes 'range' or 'enum', not both")
        }
    }

    private static func integers(_ p: Params, _ key: String) throws -> [Int] {
        let items = try p.array(key)
        return try items.map {
            guard let n = $0.intValue else { throw p.typeError(key, "an array of integers", .array(items)) }
            return n
        }
    }

    private static func character(_ p: Params, _ key: String) throws -> Character? {
        guard let s = try p.optionalString(key) else { return nil }
        guard s.count == 1, let c = s.first else {
            throw MessageError.invalidParams("\(p.name(key)): expected one character, got '\(s)'")
        }
        return c
    }

    private static func number(_ p: Params) throws -> NumberSpec {
        let keys = [
            "group", "decimal", "fraction", "negative", "maxInteger", "grouping", "min", "max", "prefix", "suffix",
            "decimalAliases", "padFraction",
        ]
        for key in p.object.keys where !keys.contains(key) {
            throw MessageError.invalidParams("\(p.path): unknown key '\(key)'")
        }
        var spec = NumberSpec()
        if let group = try p.optionalString("group") { spec.group = group }
        if let decimal = try character(p, "decimal") { spec.decimal = decimal }
        if let fraction = try p.optionalInt("fraction") { spec.fraction = fraction }
        if let negative = try p.optionalBool("negative") { spec.negative = negative }
        spec.maxInteger = try p.optionalInt("maxInteger")
        if let grouping = try p.optionalString("grouping") {
            guard let g = NumberSpec.Grouping(rawValue: grouping) else {
                throw MessageError.invalidParams(
                    "\(p.name("grouping")): unknown grouping '\(grouping)' (one of "
                        + NumberSpec.Grouping.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            spec.grouping = g
        }
        for key in ["min", "max"] {
            guard let value = p.value(key) else { continue }
            guard let bound = value.doubleValue else { throw p.typeError(key, "a number", value) }
            if key == "min" { spec.min = bound } else { spec.max = bound }
        }
        if let prefix = try p.optionalString("prefix") { spec.prefix = prefix }
        if let suffix = try p.optionalString("suffix") { spec.suffix = suffix }
        if let aliases = p.value("decimalAliases") {
            let items = aliases.arrayValue?.compactMap(\.stringValue) ?? []
            guard items.count == aliases.arrayValue?.count, items.allSatisfy({ $0.count == 1 }) else {
                throw p.typeError("decimalAliases", "an array of one-character strings", aliases)
            }
            spec.decimalAliases = items.map { $0.first! }
        }
        if let pad = try p.optionalBool("padFraction") { spec.padFraction = pad }
        return spec
    }

    /// The masks read by `compileJSON`, by their JSON (emptied when full, as the engine's compile cache is), and the
    /// last one asked for: a run of requests naming one mask compares its JSON, with no hashing.
    private struct CompiledMasks {
        var byJSON: [JSONValue: (MaskSpec, Mask)] = [:]
        var last: (json: JSONValue, compiled: (MaskSpec, Mask))?

        /// The compiled mask of `value`, if it was read before; it becomes the last one.
        mutating func known(_ value: JSONValue) -> (MaskSpec, Mask)? {
            if last?.json == value { return last?.compiled }
            guard let known = byJSON[value] else { return nil }
            last = (value, known)
            return known
        }
    }
    private static let compiledJSON = Mutex(CompiledMasks())
    private static let compiledJSONLimit = 1024

    /// Reads and compiles a JSON mask.
    /// - Throws: `-32602` for a malformed spec or a `MaskError`, with the offset in `data`.
    /// - Parameter path: made only when the mask is read afresh (a known one has no error to name).
    public static func compileJSON(_ value: JSONValue, path makePath: @autoclosure () -> String) throws -> (
        MaskSpec, Mask
    ) {
        // Every maskd/apply names its mask: the same JSON reads to the same spec, so it is read once.
        if let known = compiledJSON.withLock({ $0.known(value) }) { return known }
        let path = makePath()
        let spec = try fromJSON(value, path: path)
        do {
            let compiled = (spec, try Mask.compile(spec))
            compiledJSON.withLock { masks in
                if masks.byJSON.count >= compiledJSONLimit { masks.byJSON.removeAll(keepingCapacity: true) }
                masks.byJSON[value] = compiled
                masks.last = (value, compiled)
            }
            return compiled
        } catch let error as MaskError {
            var data: JSONValue? = nil
            if let offset = error.offset { data = ["offset": .int(Int64(offset))] }
            throw MessageError.invalidParams("\(path): \(error.description)", data: data)
        }
    }
}
