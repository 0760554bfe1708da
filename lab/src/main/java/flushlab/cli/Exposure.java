package flushlab.cli;

import flushlab.core.HostPort;
import java.io.PrintStream;

/**
 * Listeners bind to loopback unless asked; when asked otherwise, the user is told what that opens.
 */
final class Exposure {
  private Exposure() {}

  static void warnIfNotLoopback(PrintStream err, String flag, HostPort at, String what) {
    if (at.isLoopback()) return;
    err.println(
        "warning: "
            + flag
            + " "
            + at
            + " is not a loopback address: "
            + what
            + " will be reachable from other machines; use 127.0.0.1 unless that is what you want");
  }
}
