#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#endif

/// A value behind a lock: `os_unfair_lock` on Apple platforms, `pthread_mutex_t` elsewhere.
///
/// Dwell uses this instead of `Synchronization.Mutex` because ThreadSanitizer understands
/// these locks on every platform (it reports false races through `Mutex` on Linux), and
/// because it also runs on systems older than `Mutex` requires. Same shape as `Mutex`.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
  // @unchecked: `value` is only touched between lock() and unlock().
  #if canImport(Darwin)
    private let lock: UnsafeMutablePointer<os_unfair_lock>
  #else
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
  #endif
  private var value: Value

  /// Creates a lock around `value`.
  public init(_ value: consuming Value) {
    self.value = value
    #if canImport(Darwin)
      lock = .allocate(capacity: 1)
      lock.initialize(to: os_unfair_lock())
    #else
      lock = .allocate(capacity: 1)
      lock.initialize(to: pthread_mutex_t())
      pthread_mutex_init(lock, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(lock)
    #endif
    lock.deinitialize(count: 1)
    lock.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inline(__always)
  public func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
    #if canImport(Darwin)
      os_unfair_lock_lock(lock)
      defer { os_unfair_lock_unlock(lock) }
    #else
      pthread_mutex_lock(lock)
      defer { pthread_mutex_unlock(lock) }
    #endif
    return try body(&value)
  }
}
