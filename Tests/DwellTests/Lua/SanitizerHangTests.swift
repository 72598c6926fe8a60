import Foundation
import Testing

/// CI runs the suite under ThreadSanitizer through `scripts/tsan-test`, which runs it once
/// more only when a hang is the sanitizer runtime's own deadlock. Its reading of a hung
/// process's stacks must tell that deadlock from a hang in Dwell, or a real deadlock would
/// be retried away.
@Suite struct SanitizerHangTests {
  static let script = TestPaths.packageRoot.appendingPathComponent("scripts/tsan-test").path

  /// Excerpts of `gdb -batch -ex "thread apply all bt"` output: the runtime's deadlock as
  /// seen on this project, and threads of a process hung on its own locks.
  static let runtimeDeadlock = """
    Thread 18 (Thread 0x7f9e28ff66c0 (LWP 3644) "-qos.overcommit"):
    #0  FutexWait () at /home/build-user/llvm-project/compiler-rt/lib/sanitizer_common/sanitizer_linux.cpp:834
    #1  0x0000562d7c8c616a in Wait () at /home/build-user/llvm-project/compiler-rt/lib/sanitizer_common/sanitizer_mutex.cpp:35
    #2  0x0000562d7c954960 in Lock () at /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/../../sanitizer_common/sanitizer_mutex.h:196
    #4  TracePartAlloc () at /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_rtl.cpp:90
    """
  static let ownDeadlock = """
    Thread 3 (Thread 0x7f9e243fd6c0 (LWP 1974) "-qos.overcommit"):
    #0  futex_wait (private=0, expected=2, futex_word=0x7b0c000003c0) at ../sysdeps/nptl/futex-internal.h:146
    #1  __lll_lock_wait (futex=0x7b0c000003c0, private=0) at ./nptl/lowlevellock.c:49
    #2  0x0000562d7c8f1234 in pthread_mutex_lock () at tsan_interceptors_posix.cpp:1340
    #3  0x0000562d7cd6c193 in $s5Dwell6LockedV8withLock () at /work/Sources/Dwell/Support/Locked.swift:30
    """

  @Test(arguments: [(runtimeDeadlock, true), (ownDeadlock, false), ("", false)])
  func aHangIsRetriedOnlyWhenTheRuntimeDeadlocked(stacks: String, retried: Bool) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("stacks-\(UUID().uuidString).txt")
    try stacks.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try Subprocess.run("/bin/bash", [Self.script, "--classify", file.path], timeout: .seconds(30))
    #expect((result.status == 0) == retried, "\(result.stdout)\(result.stderr)")
  }
}
