// maskd-bench: the bench's own `initialize` params; the other messages are the shared client's (`Messages`).
import Glibc
import JSON
import MaskdClient

extension Messages {
    static func initializeParams() -> JSONValue {
        [
            "processId": .int(Int64(getpid())),
            "clientInfo": ["name": "maskd-bench"],
            "rootUri": .null,
            "capabilities": ["general": ["positionEncodings": ["utf-16"]]],
        ]
    }
}
