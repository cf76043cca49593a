// The JSON layer; see ARCHITECTURE.md.
