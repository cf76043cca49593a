// maskd: argument parsing shared by every command.

/// A bad command line or a bad mask: reported on stderr, exit code 2.
struct UsageError: Error {
    var message: String
    var showUsage = true
}

func writeStandardError(_ text: String) {
    writeAll(2, text)
}

let usage = """
    maskd \(maskdVersion): formats fields (phone numbers, card numbers, ...) as people type.

    Usage:
      maskd [--stdio] [--log-file PATH] [--log-level error|warn|info|debug]
          Serve the maskd protocol (LSP framing, JSON-RPC 2.0) on stdin/stdout.
          Logs go to stderr, or to PATH; never to stdout. Default level: warn.
      maskd format --mask M [--caret N] [--json | --output FORM] TEXT
          Read TEXT into an empty field of mask M.
      maskd format --mask M [--json | --output FORM] [--check] [--jobs N] [-]
          Format standard input line by line: one formatted line out per line in, each ended as it came.
          --output writes each line's text (text, the default), extracted value (value), or, for the
          phone preset, libphonenumber's form of the number: e164 (+12015550123), rfc3966, national,
          international; a line that is no number is an empty line, reported on stderr.
          --json prints one maskd/apply result per line, with "line" (JSON Lines). --check reports each
          line that is not complete and valid on stderr ("line N: problems") and exits 1 if there is any.
          A line that is not UTF-8, or longer than 65536 bytes, is reported and copied out unchanged.
          On a terminal, stderr shows progress, and with --check a summary. --jobs N formats with N threads
          (default: the cores this process may use), writing the same lines in the same order as one.
      maskd format --tagged [--json | --output text|value] [--check] [--jobs N] [-]
          The same, each line naming its own mask before a tab: a preset or a JSON MaskSpec object
          (br.cpf<TAB>39053344705 gives br.cpf<TAB>390.533.447-05; --json adds "tag"). A line with
          no tab or an unknown mask is reported and copied out unchanged; an empty line stays.
      maskd edit --mask M --text T --selection S:E (--insert X | --backspace | --delete) [--json]
          Apply one edit to field text T with the caret or selection S:E.
      maskd presets
          List the named masks usable as {"preset": NAME}.
      maskd demo
          Start a daemon and play a scripted editing session against it, checking every step.
      maskd --version | --help

    M is bracket notation (+1 ([000]) [000]-[0000]) or a JSON MaskSpec object
    ({"groups": [4, 4, 4, 4], "accept": "digits"}). Offsets (N, S, E) count UTF-16 code units,
    as maskd/apply does. The result prints with the caret as '|', then the field's state;
    --json prints the maskd/apply result object instead.
    Exit codes: 0 success; 1 a demo failure, or lines reported by format over standard input;
    2 bad arguments or bad mask (then nothing is read or written).

    """

/// A simple option reader: `--name value` pairs, `--flag`s, and the positional rest.
struct OptionParser {
    var options: [String: String] = [:]
    var flags: Set<String> = []
    var positional: [String] = []

    init(_ arguments: [String], valued: Set<String>, flags known: Set<String>) throws {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if argument == "--" {
                positional += arguments[(i + 1)...]
                break
            }
            if argument.hasPrefix("--"), argument.count > 2 {
                var name = String(argument.dropFirst(2))
                var inline: String?
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                if valued.contains(name) {
                    if let inline {
                        options[name] = inline
                    } else {
                        guard i + 1 < arguments.count else { throw UsageError(message: "--\(name) needs a value") }
                        i += 1
                        options[name] = arguments[i]
                    }
                } else if known.contains(name), inline == nil {
                    flags.insert(name)
                } else {
                    throw UsageError(message: "unknown option --\(name)")
                }
            } else {
                positional.append(argument)
            }
            i += 1
        }
    }

    func required(_ name: String) throws -> String {
        guard let value = options[name] else { throw UsageError(message: "--\(name) is required") }
        return value
    }

    func integer(_ name: String) throws -> Int? {
        guard let value = options[name] else { return nil }
        guard let n = Int(value), n >= 0 else { throw UsageError(message: "--\(name) takes a number, got '\(value)'") }
        return n
    }
}
