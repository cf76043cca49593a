// maskd: `workspace/executeCommand`: the commands code actions carry.
import JSON
import JSONRPC

/// `maskd.openField`: opens a field and applies its edits through `workspace/applyEdit`.
///
/// Arguments: `[{"textDocument": {"uri", "version"?}, "range" or "at", "mask": MaskSpec, "field"?}]`,
/// the params of `maskd/openField`.
enum OpenFieldCommand {
    static let name = "maskd.openField"
}

/// `maskd.closeField`: closes a field; its text stays, but for what a number mask's `padFraction` adds
/// (delivered as the client's mode delivers formatting: `workspace/applyEdit` in the plain-client mode).
///
/// Arguments: `[{"textDocument": {"uri", "version"?}, "field"}]`, the params of `maskd/closeField`.
enum CloseFieldCommand {
    static let name = "maskd.closeField"
}

extension Server {
    /// Carries out a command.
    /// - Returns: `null`; `maskd.openField` has sent its edits as `workspace/applyEdit` by then
    ///   (none when the text is already in form), and their `didChange` will be the echo.
    /// - Throws: `-32602` for an unknown command or bad arguments (named by their path,
    ///   `params.arguments[0].range`), `-32801` when the document moved past the argument's
    ///   `textDocument.version`, `-32600` for `maskd.openField` when the client cannot apply edits.
    func executeCommand(_ command: String, _ arguments: [JSONValue]) throws -> JSONValue {
        switch command {
        case OpenFieldCommand.name:
            let open = try Server.argument(arguments) { try OpenFieldRequest(params: $0) }
            guard client.applyEdit else {
                throw MessageError(
                    code: ErrorCode.invalidRequest,
                    message: "\(command) applies its edits with workspace/applyEdit, which the client "
                        + "does not offer (capabilities.workspace.applyEdit)")
            }
            let (document, outcome) = try Server.rebasing(to: "params.arguments[0]") {
                try openFieldOutcome(
                    uri: open.uri, version: open.version, place: open.place, spec: open.spec,
                    mask: open.mask, id: open.field, force: open.force)
            }
            applyEdits(uri: open.uri, version: document.version, outcome.edits, what: "open field")
            fieldsChanged(open.uri)
            return .null
        case CloseFieldCommand.name:
            let close = try Server.argument(arguments) { try CloseFieldRequest(params: $0) }
            return try Server.rebasing(to: "params.arguments[0]") {
                try closeField(uri: close.uri, version: close.version, id: close.field, caret: close.position)
            }
        default:
            throw MessageError.invalidParams(
                "params.command: unknown command '\(command)' (maskd knows "
                    + Server.commands.joined(separator: ", ") + ")")
        }
    }

    /// Reads the first argument as a message's params.
    /// - Throws: `-32602` naming the argument's path (`params.arguments[0]...`).
    private static func argument<T>(_ arguments: [JSONValue], _ read: (JSONValue) throws -> T) throws -> T {
        guard let first = arguments.first else {
            throw MessageError.invalidParams("params.arguments: expected one argument object, got none")
        }
        return try rebasing(to: "params.arguments[0]") { try read(first) }
    }

    /// Runs `body`, moving the paths in its `-32602` messages from `params` to `path` (`params.arguments[0]`, where
    /// a command carries a request's params; `params.fields[3]`, an entry of `maskd/openFields`).
    static func rebasing<T>(to path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as MessageError
            where error.code == ErrorCode.invalidParams && error.message.hasPrefix("params")
        {
            error.message = path + error.message.dropFirst("params".count)
            throw error
        }
    }
}
