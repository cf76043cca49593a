/// A mask whose program follows what has been entered: the card brand by its prefix, the
/// IBAN's length by its country code.
package final class DynamicProgram: @unchecked Sendable {
    /// The program for no or undecided input.
    let broad: Program
    /// Every program the selector may return, for the byte path's check.
    let all: [Program]
    private let select: (AlnumPrefix) -> (Program, brand: String?)
    /// Problems with a complete value that only the selector knows (a length the brand lacks):
    /// given the first letters or digits, the number entered, and the brand.
    let problems: (AlnumPrefix, Int, String?) -> [String]

    package init(
        broad: Program, all: [Program], select: @escaping (AlnumPrefix) -> (Program, brand: String?),
        problems: @escaping (AlnumPrefix, Int, String?) -> [String]
    ) {
        self.broad = broad
        self.all = all
        self.select = select
        self.problems = problems
    }

    /// The program and brand for entered characters that begin with `prefix`.
    func program(forPrefix prefix: AlnumPrefix) -> (Program, brand: String?) { select(prefix) }
}
