// maskd: `workspace/didChangeConfiguration`.
import JSON

/// The client's settings changed: `{"settings": any}`. `settings.maskd.rules` (or `settings.rules`), when
/// present, replaces the rules of `initializationOptions`; the workspace files are re-read either way.
struct DidChangeConfigurationNotification: NotificationMessage {
    static let method = "workspace/didChangeConfiguration"

    /// The new client rules, when the settings carry them.
    let rules: JSONValue?

    init(params: JSONValue) throws {
        let settings = params["settings"]
        rules = settings?["maskd"]?["rules"] ?? settings?["rules"]
    }

    func handle(_ server: Server) {
        if let rules { server.clientRules = rules.isNull ? nil : rules }
        server.reloadRules()
        server.requestRulesWatcherIfDue()
    }
}
