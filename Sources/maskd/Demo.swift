func runDemo(_ arguments: [String]) throws -> Int32 { 1 }
