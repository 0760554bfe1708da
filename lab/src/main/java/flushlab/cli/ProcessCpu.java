package flushlab.cli;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * This process's CPU time, as the client prints its own cost beside what it measured: the emitter's
 * cost per frame is read from outside (bench/peers.sh), the client's from inside, over the measured
 * batch only (its JVM's start and warm-up left out).
 */
final class ProcessCpu {
  private ProcessCpu() {}

  /** CPU time this process has used, every thread and the JVM's own, in ns; -1 when unknown. */
  static long nanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1;
  }

  /** ", client CPU 12.3 us a frame", or nothing when the CPU time or the frames are not known. */
  static String perFrame(long cpuNanos, long frames) {
    if (cpuNanos < 0 || frames <= 0) return "";
    return String.format(Locale.ROOT, ", client CPU %.1f us a frame", cpuNanos / 1e3 / frames);
  }
}
