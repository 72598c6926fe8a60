import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program for the end-to-end tests, with a deadline, and without Foundation's
/// `Process`.
///
/// Two things about `Process` on Linux made CI hang for ever: the child inherits the test
/// runner's blocked signal mask (so `kill-session` could not stop a `dwell sim` under tmux),
/// and `waitUntilExit()` watches a socket the child inherits, so a daemon the child starts
/// (the tmux server) keeps the parent waiting after the child has exited. Here the child
/// gets default signal handling, an empty signal mask, its own process group, and no
/// descriptor but 0, 1 and 2; the parent waits with `waitpid` and kills the group when the
/// deadline passes.
enum Subprocess {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The deadline passed and the process group was killed.
    var timedOut: Bool
  }

  struct SpawnError: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `executable` with `arguments`, feeds it `input`, and collects its output.
  ///
  /// - Parameter capture: when false, the child's output goes to /dev/null and nothing is
  ///   read (for programs that start daemons, which would hold a pipe open).
  static func run(
    _ executable: String, _ arguments: [String], input: String = "", capture: Bool = true,
    timeout: Duration = .seconds(180)
  ) throws -> Result {
    var inPipe: [Int32] = [-1, -1]
    var outPipe: [Int32] = [-1, -1]
    var errPipe: [Int32] = [-1, -1]
    guard makePipe(&inPipe), makePipe(&outPipe), makePipe(&errPipe) else {
      throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
    }
    defer { for fd in inPipe + outPipe + errPipe where fd >= 0 { close(fd) } }
    let null = open("/dev/null", O_RDWR | O_CLOEXEC)
    defer { if null >= 0 { close(null) } }

    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #else
      var actions: posix_spawn_file_actions_t?
      var attributes: posix_spawnattr_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, capture ? outPipe[1] : null, 1)
    posix_spawn_file_actions_adddup2(&actions, capture ? errPipe[1] : null, 2)
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setpgroup(&attributes, 0)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)
    #if os(Linux)
      // glibc 2.34+; Swift's Glibc module does not export it, so look it up.
      typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
      if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
      }
    #else
      flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      throw SpawnError(description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))")
    }
    // The child's ends belong to the child now.
    for fd in [inPipe[0], outPipe[1], errPipe[1]] { close(fd) }
    (inPipe[0], outPipe[1], errPipe[1]) = (-1, -1, -1)

    var pending = Array(input.utf8)
    if pending.isEmpty {
      close(inPipe[1])
      inPipe[1] = -1
    } else {
      _ = fcntl(inPipe[1], F_SETFL, fcntl(inPipe[1], F_GETFL) | O_NONBLOCK)
    }
    var out: [UInt8] = []
    var err: [UInt8] = []
    let deadline = ContinuousClock.now + timeout
    var timedOut = false
    var open = capture ? [outPipe[0], errPipe[0]] : []
    while !open.isEmpty || inPipe[1] >= 0 {
      let left = deadline - ContinuousClock.now
      if left <= .zero {
        timedOut = true
        kill(-pid, SIGKILL)
        break
      }
      var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      if inPipe[1] >= 0 { fds.append(pollfd(fd: inPipe[1], events: Int16(POLLOUT), revents: 0)) }
      let milliseconds = Int32(min(1000, max(1, left.components.seconds * 1000)))
      if poll(&fds, nfds_t(fds.count), milliseconds) < 0, errno != EINTR {
        throw SpawnError(description: "poll: \(String(cString: strerror(errno)))")
      }
      for entry in fds where entry.revents != 0 {
        if entry.fd == inPipe[1] {
          let written = pending.withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
          if written > 0 { pending.removeFirst(written) }
          if written < 0 && errno != EAGAIN || pending.isEmpty {
            close(inPipe[1])
            inPipe[1] = -1
          }
          continue
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
        if count > 0 {
          if entry.fd == outPipe[0] {
            out += buffer[0..<count]
          } else {
            err += buffer[0..<count]
          }
        } else if count == 0 || errno != EINTR && errno != EAGAIN {
          open.removeAll { $0 == entry.fd }
        }
      }
    }
    var status: Int32 = 0
    while true {
      if timedOut {
        if waitpid(pid, &status, 0) >= 0 || errno != EINTR { break }
        continue
      }
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid || waited < 0 && errno != EINTR { break }
      if ContinuousClock.now >= deadline {
        timedOut = true
        kill(-pid, SIGKILL)
        continue
      }
      usleep(10_000)
    }
    let signal = status & 0x7f
    return Result(
      status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
      stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
      timedOut: timedOut)
  }

  private static func makePipe(_ fds: inout [Int32]) -> Bool {
    var pair: [Int32] = [-1, -1]
    guard pipe(&pair) == 0 else { return false }
    for fd in pair { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    fds = pair
    return true
  }
}
