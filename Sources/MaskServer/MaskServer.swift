// The MaskServer layer; see ARCHITECTURE.md.
