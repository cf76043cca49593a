/// `value` with exactly `decimals` decimals, for the figures the bench, the soak and the hostile suite print (there is
/// no Foundation here).
public func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    var text = "\(whole)"
    if decimals > 0 {
        let fractionText = "\(fraction)"
        text += "." + String(repeating: "0", count: decimals - fractionText.count) + fractionText
    }
    return value < 0 && scaled > 0 ? "-" + text : text
}
