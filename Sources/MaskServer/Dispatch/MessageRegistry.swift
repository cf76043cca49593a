// maskd: every message the daemon knows, in one place.
import JSON
import JSONRPC

/// A request the client sends: typed params decoded from JSON, and a handler.
protocol RequestMessage {
    /// The JSON-RPC method.
    static var method: String { get }
    /// Decodes the params. - Throws: `-32602` naming the bad field.
    init(params: JSONValue) throws
    /// Carries the request out. - Throws: a `MessageError` to answer with.
    func handle(_ server: Server) throws -> JSONValue
    /// Carries the request out for the channel: the result as its message describes it (by default ``handle(_:)``'s
    /// value). - Throws: a `MessageError` to answer with.
    func answer(_ server: Server) throws -> any OutgoingBody
}

extension RequestMessage {
    func answer(_ server: Server) throws -> any OutgoingBody { try handle(server) }
}

/// A notification the client sends.
protocol NotificationMessage {
    static var method: String { get }
    init(params: JSONValue) throws
    func handle(_ server: Server)
}

/// Every message the daemon handles, alphabetically by method.
///
/// Add each new message here (and give it its own file under `Messages/`); the dispatcher
/// knows nothing else. Messages the daemon sends (`maskd/didFormat`, `window/logMessage`, `window/showMessage`,
/// `textDocument/publishDiagnostics`, and the requests `workspace/applyEdit`, `client/registerCapability`,
/// `workspace/inlayHint/refresh` and `workspace/diagnostic/refresh`) have files too but are not dispatched; responses to the
/// daemon's requests go to `Server.awaiting`.
enum MessageRegistry {
    static let requests: [any RequestMessage.Type] = [
        InitializeRequest.self,  // initialize
        ApplyRequest.self,  // maskd/apply
        CloseFieldRequest.self,  // maskd/closeField
        FieldsRequest.self,  // maskd/fields
        FormatHintsRequest.self,  // maskd/formatHints
        OpenFieldRequest.self,  // maskd/openField
        OpenFieldsRequest.self,  // maskd/openFields
        SetMaskRequest.self,  // maskd/setMask
        ShutdownRequest.self,  // shutdown
        CodeActionRequest.self,  // textDocument/codeAction
        DocumentDiagnosticRequest.self,  // textDocument/diagnostic
        DocumentFormattingRequest.self,  // textDocument/formatting
        HoverRequest.self,  // textDocument/hover
        InlayHintRequest.self,  // textDocument/inlayHint
        DocumentRangeFormattingRequest.self,  // textDocument/rangeFormatting
        ExecuteCommandRequest.self,  // workspace/executeCommand
    ]

    static let notifications: [any NotificationMessage.Type] = [
        ExitNotification.self,  // exit
        InitializedNotification.self,  // initialized
        DidChangeTextDocumentNotification.self,  // textDocument/didChange
        DidCloseTextDocumentNotification.self,  // textDocument/didClose
        DidOpenTextDocumentNotification.self,  // textDocument/didOpen
        DidChangeConfigurationNotification.self,  // workspace/didChangeConfiguration
        DidChangeWatchedFilesNotification.self,  // workspace/didChangeWatchedFiles
        DidChangeWorkspaceFoldersNotification.self,  // workspace/didChangeWorkspaceFolders
    ]

    static let requestsByMethod: [String: any RequestMessage.Type] =
        Dictionary(uniqueKeysWithValues: requests.map { ($0.method, $0) })
    static let notificationsByMethod: [String: any NotificationMessage.Type] =
        Dictionary(uniqueKeysWithValues: notifications.map { ($0.method, $0) })
}
