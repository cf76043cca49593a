/// A mask as a client describes it: one form plus options.
///
/// This mirrors the JSON `MaskSpec` of `Protocol/masks.md` field for field, so the server can
/// translate one into the other without judgement. The engine never reads JSON itself.
public struct MaskSpec: Hashable, Sendable {
    /// The one form a mask takes; an object naming two forms is rejected before this exists.
    public indirect enum Form: Hashable, Sendable {
        /// Bracket notation, `+1 ([000]) [000]-[0000]`.
        case notation(String)
        /// Every `slot` character is a required slot of class `accept`; the rest are literals.
        case pattern(String)
        /// Slot groups joined by `separator`, `[4, 4, 4, 4, 3]`.
        case groups([Int])
        /// Separators at fixed places: 0-based indexes in the formatted text where `separator` stands.
        case separatorAt([Int])
        /// A named preset (`phone.cn`, `card`, ...); options apply on top of it.
        case preset(String)
        /// Several masks; the one that keeps most entered characters wins after every edit.
        case oneOf([MaskSpec])
        /// A number grouped from the right.
        case number(NumberSpec)
    }

    public var form: Form
    /// `pattern`: the slot character (default `#`).
    public var slot: Character?
    /// `pattern`, `groups`, `separatorAt`: the class of every slot (default digits).
    public var accept: CharacterClass?
    /// `groups`, `separatorAt`: the separator (default one space for groups).
    public var separator: String?
    /// `groups`, `separatorAt`: slots beyond this many are optional.
    public var minLength: Int?
    /// `groups`, `separatorAt`: no more than this many slots.
    public var maxLength: Int?
    /// `groups`: repeat the last group size (bounded by `maxLength`).
    public var `repeat`: Bool?
    /// Show literals after the last entered character before the next one is typed.
    public var eager: Bool?
    /// Letters are converted as entered.
    public var letterCase: LetterCase?
    /// The extracted value must stay a prefix of a match, and match once complete.
    public var regex: String?
    /// Check-digit or calendar validators run on complete values.
    public var validate: [String]?
    /// How an unfilled slot is shown in `placeholder` (default `_`).
    public var placeholderChar: Character?
    /// `pattern`: named blocks (a range of numbers, a list of words) standing in the pattern.
    public var blocks: [String: BlockSpec]?
    /// The `date` preset: `ymd` (default), `dmy` or `mdy`.
    public var order: String?
    /// The `phone` preset: the region of national input (ISO 3166-1 alpha-2); nil: international.
    public var region: String?
    /// Slot forms: a character typed at the caret replaces the entered character at or after it.
    public var overwrite: Bool?
    /// Slot forms: the mask is filled from its end (`[000] [000]` with `1234` shows `1 234`).
    public var rightToLeft: Bool?
    /// Slot forms: slot characters of the mask's own, each a one-character class of the `regex`
    /// subset, optional with a trailing `?` (`"H": "[0-9A-F]"`).
    public var definitions: [Character: String]?
    /// `pattern`, `groups`, `separatorAt`: every slot is of this definition's class (instead of `accept`).
    public var acceptDefinition: Character?
    /// The `date` and `datetime` presets: the earliest and latest value typed in, ISO `YYYY-MM-DD`
    /// (`datetime`: `YYYY-MM-DDTHH:MM`, `:SS` optional) whatever the `order`.
    public var min: String?
    public var max: String?
    /// The `time` and `datetime` presets: show seconds (`HH:MM:SS`).
    public var seconds: Bool?
    /// The `time` and `datetime` presets: 24 (default) or 12 (`hh:MM AM`).
    public var clock: Int?

    public init(
        _ form: Form, slot: Character? = nil, accept: CharacterClass? = nil, separator: String? = nil,
        minLength: Int? = nil, maxLength: Int? = nil, repeat: Bool? = nil, eager: Bool? = nil,
        letterCase: LetterCase? = nil, regex: String? = nil, validate: [String]? = nil,
        placeholderChar: Character? = nil, blocks: [String: BlockSpec]? = nil, order: String? = nil,
        region: String? = nil, overwrite: Bool? = nil, rightToLeft: Bool? = nil,
        definitions: [Character: String]? = nil, min: String? = nil, max: String? = nil, seconds: Bool? = nil,
        clock: Int? = nil
    ) {
        self.form = form
        self.slot = slot
        self.accept = accept
        self.separator = separator
        self.minLength = minLength
        self.maxLength = maxLength
        self.repeat = `repeat`
        self.eager = eager
        self.letterCase = letterCase
        self.regex = regex
        self.validate = validate
        self.placeholderChar = placeholderChar
        self.blocks = blocks
        self.order = order
        self.region = region
        self.overwrite = overwrite
        self.rightToLeft = rightToLeft
        self.definitions = definitions
        self.min = min
        self.max = max
        self.seconds = seconds
        self.clock = clock
    }

    /// The plain string form: bracket notation with no options.
    public static func notation(_ text: String) -> MaskSpec { MaskSpec(.notation(text)) }
}

/// A named block of a `pattern`: `{"range": [1, 12]}` or `{"enum": ["AM", "PM"]}`, with `pad`.
public struct BlockSpec: Hashable, Sendable {
    public enum Rule: Hashable, Sendable {
        /// Digits as wide as `max`, the value in `min...max`.
        case range(min: Int, max: Int)
        /// One of the words, case-insensitively.
        case words([String])
    }

    public var rule: Rule
    /// Pad a first digit that can only make a shorter value with zeros (default true; ranges only).
    public var pad: Bool?

    public init(_ rule: Rule, pad: Bool? = nil) {
        self.rule = rule
        self.pad = pad
    }
}

/// The character classes a slot or an `accept` option names.
public enum CharacterClass: String, Hashable, Sendable, CaseIterable {
    /// Unicode decimal digits, normalised to ASCII.
    case digits
    /// Unicode letters.
    case letters
    /// A letter or a digit.
    case alnum
    /// Digits, plus `X` or `x` normalised to `X` (the Chinese ID check character).
    case digitsX
    /// Any one grapheme cluster but a line break.
    case any
}

/// The `case` option.
public enum LetterCase: String, Hashable, Sendable {
    case upper, lower
}

/// The `number` form's settings: `{"group": ",", "decimal": ".", "fraction": 2, ...}`.
public struct NumberSpec: Hashable, Sendable {
    /// How the integer part is grouped from the right.
    public enum Grouping: String, Hashable, Sendable, CaseIterable {
        /// Threes: `1,234,567`.
        case thousand
        /// India's lakh and crore: three, then twos: `12,34,567`.
        case lakh
        /// China's and Japan's wan: fours: `1,2345,6789`.
        case wan
        /// No group separators.
        case none
    }

    public var group: String
    public var decimal: Character
    public var fraction: Int
    public var negative: Bool
    public var maxInteger: Int?
    public var grouping: Grouping
    /// Bounds of the value: a key that would take it past `max` (when `max` >= 0) or below `min` (when
    /// `min` <= 0) is refused; a value beyond a bound on the other side is a problem.
    public var min: Double?
    public var max: Double?
    /// Shown before and after the number, never in the value (`$`, ` ₽`).
    public var prefix: String
    public var suffix: String
    /// Characters that, typed, act as the decimal mark.
    public var decimalAliases: [Character]
    /// Formatting pads the fraction with zeros to `fraction` digits (`12.5` is `12.50`).
    public var padFraction: Bool

    public init(
        group: String = ",", decimal: Character = ".", fraction: Int = 2, negative: Bool = false,
        maxInteger: Int? = nil, grouping: Grouping = .thousand, min: Double? = nil, max: Double? = nil,
        prefix: String = "", suffix: String = "", decimalAliases: [Character] = [], padFraction: Bool = false
    ) {
        self.group = group
        self.decimal = decimal
        self.fraction = fraction
        self.negative = negative
        self.maxInteger = maxInteger
        self.grouping = grouping
        self.min = min
        self.max = max
        self.prefix = prefix
        self.suffix = suffix
        self.decimalAliases = decimalAliases
        self.padFraction = padFraction
    }
}

/// A mask that cannot be compiled: what is wrong and where.
public struct MaskError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A sentence a person can act on, e.g. "unbalanced '[' at offset 4".
    public var message: String
    /// The offset in the mask's notation (in characters), when the problem has a place.
    public var offset: Int?

    public init(_ message: String, offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }

    public var description: String {
        if let offset { return "\(message) (at offset \(offset))" }
        return message
    }
}
