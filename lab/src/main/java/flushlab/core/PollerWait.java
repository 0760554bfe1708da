package flushlab.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether an event loop's thread is asleep in its poller (Netty's epoll loop waits in {@code
 * epoll_pwait2}), read by another thread from Linux's {@code /proc/self/task/TID/syscall}: the
 * number of the system call the thread is blocked in, or "running".
 *
 * <p>Why the meter asks: a loop whose tick came late while its thread neither ran nor waited for a
 * core was either blocked by the lab's own code (a lock, a park) or left asleep past its timeout by
 * the kernel, whose timer interrupt came late because the hypervisor had taken that virtual CPU
 * away. The kernel does not count that time anywhere (this VM reports no steal time), and the
 * watcher thread, on the other core, does not stall with it: a suite run saw an emitter's idle loop
 * wake 19 ms past its tick, "ran 0.0 ms, waited for a core 0.1 ms, neither 29.1 ms", blamed on the
 * lab. Seen in its poller after its tick was due, the loop was the host's; seen in a futex (a lock,
 * {@code LockSupport.park}), it stays the lab's own. Opened lazily by the reading thread, read in
 * place (no allocation); where the file cannot be read it answers false, as the meter did before.
 */
final class PollerWait implements AutoCloseable {
  /**
   * The system calls an event loop waits in: epoll_wait, epoll_pwait, epoll_pwait2, io_uring_enter
   * (x86_64).
   */
  private static final int[] X86_64 = {232, 281, 441, 426};

  /** The same on aarch64, which has no epoll_wait: epoll_pwait, epoll_pwait2, io_uring_enter. */
  private static final int[] AARCH64 = {22, 441, 426};

  private final ProcReading file;
  private final int[] pollerCalls;

  private PollerWait(String path, int[] pollerCalls) {
    this.file = new ProcReading(path, 32);
    this.pollerCalls = pollerCalls;
  }

  /**
   * For the calling thread (an event loop, at its first tick); null where the kernel or the CPU is
   * not known.
   */
  static PollerWait ofCallingThread() {
    int[] calls = pollerCalls(System.getProperty("os.arch", ""));
    if (calls.length == 0) return null;
    try {
      // "/proc/thread-self" links to "PID/task/TID"
      Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      return new PollerWait("/proc/" + self + "/syscall", calls);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return null;
    }
  }

  /** The poller's system call numbers on {@code osArch} (Java's os.arch), none where not known. */
  static int[] pollerCalls(String osArch) {
    return switch (osArch) {
      case "amd64", "x86_64" -> X86_64;
      case "aarch64" -> AARCH64;
      default -> new int[0];
    };
  }

  /**
   * Whether the thread is blocked in its poller now; false when it runs, is blocked elsewhere, or
   * the file cannot be read.
   */
  boolean asleep() {
    // -1 from then on once the thread ended (its loop closed) or /proc says nothing
    int n = file.read();
    return n > 0 && inPoller(file.buffer(), n, pollerCalls);
  }

  /**
   * "441 0x5 0x7f..." is in a poller call; "running", "-1 ..." (blocked outside a system call) and
   * others are not.
   */
  static boolean inPoller(byte[] b, int n, int[] pollerCalls) {
    int v = 0;
    int i = 0;
    for (; i < n && b[i] >= '0' && b[i] <= '9'; i++) v = v * 10 + (b[i] - '0');
    if (i == 0 || i < n && b[i] != ' ' && b[i] != '\n') return false;
    for (int c : pollerCalls) if (c == v) return true;
    return false;
  }

  @Override
  public void close() {
    file.close();
  }
}
