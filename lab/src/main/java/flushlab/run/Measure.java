package flushlab.run;

import flushlab.core.HiccupMeter;
import flushlab.core.HostQuiet;
import flushlab.scenario.Cell;
import flushlab.targets.Target;
import java.util.List;
import java.util.function.Consumer;

/**
 * One run of a cell against a target; null when interrupted (a partial run is not a measurement).
 */
interface Measure {
  RunRecord run(Target target, Cell cell, int cellIndex, int run) throws Exception;

  /**
   * One run, measured once more, once, when a guard excluded it (the emitter was late, or the
   * reader's host stalled through every merged read): both records go to {@code into} and the
   * exclusion is announced under {@code label}. A run that lost a client agent's share is not
   * measured again: that agent failed or left, and asking it again would wait for it once more or
   * split the load another way. False when interrupted.
   */
  default boolean runOnceMoreIfExcluded(
      Target target,
      Cell cell,
      int cellIndex,
      int run,
      String label,
      List<RunRecord> into,
      Consumer<String> announce)
      throws Exception {
    for (int attempt = 0; attempt < 2; attempt++) {
      RunRecord rec = run(target, cell, cellIndex, run);
      if (rec == null) return false;
      into.add(rec);
      if (!rec.excluded()) return true;
      if (attempt == 1 || rec.exclusion().cause() == Exclusion.Cause.MISSING_SHARE) {
        announce.accept(label + ": excluded (" + rec.exclusionReason() + ")");
        return true;
      } else if (rec.spoiledByHostStall()) {
        // measured once more all the same; only not in the same burst of this host's other work
        announce.accept(
            label
                + ": excluded ("
                + rec.exclusionReason()
                + "); measured again "
                + HostQuiet.await(HiccupMeter.get()).text());
      } else {
        announce.accept(label + ": excluded (" + rec.exclusionReason() + "); measured again");
      }
    }
    return true;
  }
}
