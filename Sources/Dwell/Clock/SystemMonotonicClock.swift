internal import Foundation

#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#endif

/// The production monotonic clock: time since boot, including time asleep.
///
/// On Apple platforms this is `clock_gettime_nsec_np(CLOCK_MONOTONIC)`, on Linux
/// `CLOCK_BOOTTIME`. Both keep counting
/// while the device sleeps and ignore wall-clock changes. The boot session is derived from
/// the system boot time (Apple) or the kernel's boot id (Linux).
package struct SystemMonotonicClock: MonotonicClock {
  /// Identifies the current boot; read once per process.
  package let bootSession: String

  /// Creates the system clock.
  package init() { bootSession = Self.readBootSession() }

  @inline(__always)
  package func now() -> MonotonicInstant {
    #if canImport(Darwin)
      return MonotonicInstant(nanoseconds: Int64(clock_gettime_nsec_np(CLOCK_MONOTONIC)))
    #else
      var spec = timespec()
      clock_gettime(CLOCK_BOOTTIME, &spec)
      return MonotonicInstant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    #endif
  }

  private static func readBootSession() -> String {
    #if canImport(Darwin)
      var boot = timeval()
      var size = MemoryLayout<timeval>.size
      var mib: [Int32] = [CTL_KERN, KERN_BOOTTIME]
      if sysctl(&mib, 2, &boot, &size, nil, 0) == 0 {
        return "boot-\(boot.tv_sec).\(boot.tv_usec)"
      }
      return "boot-unknown-\(ProcessInfo.processInfo.processIdentifier)"
    #else
      if let id = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) {
        return id.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      return "boot-unknown-\(ProcessInfo.processInfo.processIdentifier)"
    #endif
  }
}
