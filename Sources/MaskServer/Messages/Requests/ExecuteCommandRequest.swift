// maskd: `workspace/executeCommand`.
import JSON

/// Carries out `maskd.openField` or `maskd.closeField`, the commands of maskd's code actions.
///
/// Server capability: `executeCommandProvider: {"commands": ["maskd.openField", "maskd.closeField"]}`.
/// - Parameters: `{"command", "arguments": [object]}`; the argument is the params of
///   `maskd/openField` or `maskd/closeField`.
/// - Returns: `null`. `maskd.openField` first sends its edits as `workspace/applyEdit`.
struct ExecuteCommandRequest: RequestMessage {
    static let method = "workspace/executeCommand"

    let command: String
    let arguments: [JSONValue]

    init(params: JSONValue) throws {
        let p = try Params(params)
        command = try p.string("command")
        arguments = p.value("arguments") == nil ? [] : try p.array("arguments")
    }

    func handle(_ server: Server) throws -> JSONValue {
        try server.executeCommand(command, arguments)
    }
}
