// Saturating arithmetic on counters and nanoseconds: a sum that would overflow stops at the bound.

extension FixedWidthInteger where Self: SignedInteger {
  /// Adds `other`, clamped to the representable range instead of trapping. In place, so a
  /// dictionary entry is looked up once (`days[day, default: 0].addSaturating(n)`).
  @inline(__always)
  mutating func addSaturating(_ other: Self) {
    let (sum, overflow) = addingReportingOverflow(other)
    self = overflow ? (other > 0 ? .max : .min) : sum
  }
}
