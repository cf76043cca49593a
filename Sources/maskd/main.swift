// maskd: the executable's entry point: parse the command line, then serve or run a command.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import MaskServer

let maskdVersion = "0.1.0"

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "format":
        exit(try runFormat(Array(arguments.dropFirst())))
    case "edit":
        exit(try runEdit(Array(arguments.dropFirst())))
    case "demo":
        exit(try runDemo(Array(arguments.dropFirst())))
    case "presets":
        exit(try runPresets(Array(arguments.dropFirst())))
    default:
        exit(try runServe(arguments))
    }
} catch let error as UsageError {
    writeStandardError("maskd: \(error.message)\n")
    if error.showUsage { writeStandardError("Run 'maskd --help' for usage.\n") }
    exit(2)
}
