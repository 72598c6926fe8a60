// dwell-bench's measuring tools: the clock, medians of batches, CPU time, peak memory.
import Dwell
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let system = SystemMonotonicClock()
func now() -> Int64 { system.now().nanoseconds }

/// Median and 99th percentile of per-operation costs, measured in batches of `batch`;
/// `between` runs after each sample, untimed.
func measure(samples: Int, batch: Int = 1, between: () -> Void = {}, _ body: () -> Void) -> (
  median: Double, p99: Double
) {
  var costs: [Double] = []
  costs.reserveCapacity(samples)
  for sample in 0..<samples {
    let start = now()
    for _ in 0..<batch { body() }
    costs.append(Double(now() - start) / Double(batch))
    if sample % 10 == 0 { between() }
  }
  costs.sort()
  return (costs[costs.count / 2], costs[min(costs.count - 1, costs.count * 99 / 100)])
}

/// CPU time of the whole process so far (every thread, user and system), in seconds.
func cpuSeconds() -> Double {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
  #else
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  #endif
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Peak resident memory so far, in MiB.
func peakMiB() -> Double {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576
  #else
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
  #endif
}
