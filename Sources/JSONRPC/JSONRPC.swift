// The JSONRPC layer; see ARCHITECTURE.md.
