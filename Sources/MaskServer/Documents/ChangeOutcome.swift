// maskd: what the changes of one `didChange` did, gathered by `Document.apply`'s steps.
import MaskEngine

extension Document {
    /// What the changes of one `didChange` did so far, gathered step by step and reported once all are in.
    struct ChangeOutcome {
        /// What undoes each step, while a later change may still be refused.
        var undo: [Undo] = []
        /// The pending edits, less those the changes echoed.
        var pending: PendingEdits
        /// The text each field typed into (or read afresh) should get, by id, and what their masks refused.
        var results: [String: FieldResult] = [:]
        var rejected = "", overflow = ""
        /// A person's change touched, reshaped or closed a field: a `didFormat` is due.
        var personTouched = false
        /// The caret after the last person's change, and the field it typed into.
        var cursor: (ScalarPosition, field: String?)?
        /// A full-content change came: the document is the editor's again.
        var resynchronised = false
        /// Fields whose proposed edits a person's change overtook: their text is not the result proposed.
        var dropped: Set<String> = []
        /// Fields a change reaching beyond them clipped (their text is kept as it is), and those changes closed.
        var reshaped: Set<String> = []
        var closed: [String] = []
        /// How the changes moved lines, in order, and which of them rules may open fields after (a person's, not
        /// inside a field).
        var lineSteps: [LineStep] = []
        /// Fields whose text is kept as it stands: their state is read from it, and no edit is proposed for them.
        var asTheyStand: [String] = []

        mutating func formatted(_ id: String, as result: FieldResult) {
            results[id] = result
            rejected += result.rejected
            overflow += result.overflow
        }

        /// Field `id`'s text is kept as the editor has it (an undo gave it back): neither formatted nor read afresh,
        /// its state read from its text as a clipped field's is.
        mutating func keptAsItStands(_ id: String) {
            results[id] = nil
            dropped.remove(id)
            reshaped.insert(id)
        }

        /// The pending edits are overtaken by a person's change: their fields are read afresh.
        mutating func dropPending() {
            dropped.formUnion(pending.lazy.map(\.field))
            pending.removeAll()
        }
    }
}
