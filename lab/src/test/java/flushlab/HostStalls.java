package flushlab;

import flushlab.core.HiccupMeter;
import flushlab.run.Outcome;
import flushlab.run.RunRecord;
import flushlab.run.TargetCellResult;
import flushlab.map.FlushTrigger;
import org.junit.jupiter.api.Assumptions;

/**
 * What a timing test does when this host stalled twice in a row under it: the lab measured the
 * run once more, as it must, and the host stalled again, so the test has no result to judge. It is
 * reported as a host stall (an assumption that skips the test, with the figures the lab printed),
 * never as a wrong result and never retried further. A stall of the lab's own loops is no excuse.
 */
public final class HostStalls {
  private HostStalls() {}

  /** The words the lab uses, in a verdict or a message, when it stopped because this host stalled. */
  public static final String PHRASE = "this host stalled";

  /**
   * Skips the test with {@code message}, printed first: a skip in a class's set-up reaches the
   * report as "0 tests run" with no message, and a skip must say why with its figures.
   */
  public static void skip(String message) {
    System.out.println("SKIPPED (" + message + ")");
    Assumptions.abort(message);
  }

  /** Skips the test when this text (a map's verdict, a command's output) says this host stalled through a measurement. */
  public static void skipIfSaidIn(String text) {
    if (text != null && text.contains(PHRASE)) {
      skip("host stall, not a result (" + since() + "): " + text);
    }
  }

  /** Skips the test when certification, a cell or a map's answer of {@code o} was spoiled by this host's stalls twice. */
  public static void skipIfStalled(Outcome o) {
    skipIfSaidIn(o.certification().verdict());
    for (TargetCellResult r : o.results()) {
      if (!r.runs().isEmpty() && r.runs().stream().allMatch(RunRecord::spoiledByHostStall)) {
        skip("host stall, not a result: every run of " + r.target() + " [" + r.cell().label() + "] was excluded ("
            + r.runs().get(r.runs().size() - 1).exclusionReason() + ")");
      }
    }
    for (FlushTrigger t : o.triggers().values()) skipIfSaidIn(t.verdict());
  }

  /** The process's stalls so far, for a skip message. */
  public static String since() {
    HiccupMeter m = HiccupMeter.get();
    return "host stalls logged by this process: " + m.host().count() + ", loop stalls: " + m.loops().count();
  }
}
