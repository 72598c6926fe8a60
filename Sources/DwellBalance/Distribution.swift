package import DwellTesting
// A persona's random quantity: a constant or a distribution, sampled from a user's own generator.
internal import Foundation

/// A random quantity in a persona file: `5`, `uniform(2, 8)`, `normal(10, 3)`,
/// `lognormal(minutes(5), 0.8)` or `poisson(2)`. Samples are never negative.
package enum Distribution: Sendable, Equatable {
  /// Always this value.
  case constant(Double)
  /// Any value between the bounds, evenly.
  case uniform(Double, Double)
  /// A bell curve (negative draws count as zero).
  case normal(mean: Double, deviation: Double)
  /// Half the draws below `median`; `spread` is the standard deviation of the logarithm
  /// (0.5: most draws within 0.6x-1.6x the median; 1: within 0.37x-2.7x).
  case lognormal(median: Double, spread: Double)
  /// Whole counts around `mean` (sessions a day, say).
  case poisson(Double)

  /// One draw.
  package func sample(_ rng: inout SeededGenerator) -> Double {
    switch self {
    case .constant(let value): return value
    case .uniform(let low, let high): return low + (high - low) * Self.unit(&rng)
    case .normal(let mean, let deviation): return max(0, mean + deviation * Self.gaussian(&rng))
    case .lognormal(let median, let spread): return median * exp(spread * Self.gaussian(&rng))
    case .poisson(let mean):
      // Knuth's method, in chunks of 30 so exp() never underflows for large means.
      var count = 0
      var left = mean
      while left > 0 {
        let chunk = min(left, 30)
        left -= chunk
        let limit = exp(-chunk)
        var product = Self.unit(&rng)
        while product > limit {
          count += 1
          product *= Self.unit(&rng)
        }
      }
      return Double(count)
    }
  }

  /// The mean, for documentation and sanity checks.
  package var mean: Double {
    switch self {
    case .constant(let value): return value
    case .uniform(let low, let high): return (low + high) / 2
    case .normal(let mean, _): return mean
    case .lognormal(let median, let spread): return median * exp(spread * spread / 2)
    case .poisson(let mean): return mean
    }
  }

  /// A uniform draw in [0, 1) with 53 random bits.
  @inline(__always)
  package static func unit(_ rng: inout SeededGenerator) -> Double {
    Double(rng.next() >> 11) * 0x1.0p-53
  }

  /// A standard normal draw (Box-Muller; one of the pair is dropped to keep no state).
  package static func gaussian(_ rng: inout SeededGenerator) -> Double {
    let u = max(unit(&rng), 0x1.0p-60)
    let v = unit(&rng)
    return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
  }

  /// Picks an index with probability proportional to `weights` (all zero: the first).
  /// Generic, so a persona's table is passed as it is (`next.lazy.map(\.weight)`), not
  /// copied into a new array at every pick.
  package static func pick<Weights: Collection<Double>>(_ weights: Weights, _ rng: inout SeededGenerator) -> Int {
    let total = weights.reduce(0, +)
    guard total > 0 else { return 0 }
    var target = unit(&rng) * total
    for (index, weight) in weights.enumerated() {
      target -= weight
      if target < 0 { return index }
    }
    return weights.count - 1
  }
}
