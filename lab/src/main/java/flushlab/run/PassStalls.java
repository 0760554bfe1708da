package flushlab.run;

import flushlab.core.HiccupMeter;
import flushlab.core.HostQuiet;
import flushlab.map.CellMatch;
import flushlab.map.FlushTrigger;
import flushlab.map.ReplayVerdict;
import flushlab.map.TriggerKind;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * This host's stalls during a map's cells: where one may have spread a pass's cells, or moved the
 * cells a refused replay found different, past what a fit or a replay allows of one mechanism.
 */
final class PassStalls {
  private PassStalls() {}

  /**
   * The target's results of the cells labelled {@code labels}: where a refused replay found the
   * model different, a host stall in the target's own run of that cell may be what differed (a
   * fresh-clone suite, 2026-12-06: a threshold before a compressor refused for one cell's first
   * frame, 99.7 ms on the target against its own releases' 84.3 and the model's 80.7, with nothing
   * said of the stalls the next cell was excluded for).
   */
  static List<TargetCellResult> measuredAs(List<TargetCellResult> results, Set<String> labels) {
    return results.stream().filter(r -> labels.contains(r.cell().label())).toList();
  }

  /**
   * The longest host stall of the target's kept runs of the cells labelled {@code labels}, where
   * every one of them had one of {@link #NOISY_STALL_MS} or more; null otherwise. A stall in one
   * differing cell explains nothing of another: a replay that refused a periodic timer then a
   * compressor for a cell held to its end on the model and not on the target, and two more cells,
   * was named a host stall for a 16 ms stall in one of the others (a fresh-clone suite, 2026-12-06,
   * before this rule asked for every cell).
   */
  static String stalledInEvery(List<TargetCellResult> results, Set<String> labels) {
    if (labels.isEmpty()) return null;
    for (String label : labels) {
      if (hostStallsDuring(measuredAs(results, Set.of(label))) == null) return null;
    }
    return hostStallsDuring(measuredAs(results, labels));
  }

  /**
   * What the map says before it measures a cell again where a replay of it differed through a stall
   * of this host on {@code side} ("the target", "the model"), once this host is quiet (it waits for
   * that here): the line, and the wait's outcome.
   */
  static String differedWhereStalled(String label, String side, String stall, String again) {
    return "replay: "
        + label
        + " differed where this host stalled on "
        + side
        + " ("
        + stall
        + "); "
        + again
        + " "
        + HostQuiet.await(HiccupMeter.get()).text();
  }

  /** The cells a verdict found different, by label. */
  static Set<String> differing(ReplayVerdict v) {
    return v.cells().stream()
        .filter(c -> c.difference() != null)
        .map(CellMatch::label)
        .collect(Collectors.toSet());
  }

  /**
   * A host stall this long in a kept run moves a held cell's waits by as much, past what a fit
   * allows of one mechanism.
   */
  static final double NOISY_STALL_MS = 10;

  /**
   * The longest host stall during a kept run of the pass, where one reached {@link
   * #NOISY_STALL_MS}: the cell and the figures; null otherwise. A pass that no one mechanism
   * explained under such a stall may have been spread by the host, not the target: under a CPU hog
   * a hold of 102 ms then one-late, whose cells fit it 6 of 6 on a quiet host, was answered
   * inconclusive from three cells, one with waits spread 206-217 ms (a fresh-clone suite with a
   * hog, 2026-12-04).
   */
  static String hostStallsDuring(List<TargetCellResult> pass) {
    return hostStallsDuring(pass, NOISY_STALL_MS);
  }

  /**
   * A host stall this long in a cell's kept run lets a cell that alone keeps one mechanism out be
   * measured once more: a release read that much late moves a clock's gap by it either way, and a
   * suite's clock of 106 ms, its 60 B cell's gaps 95.9 to 111.1 ms (10 % of the period), was
   * refused on that cell alone with no stall of 10 ms logged, and the budget ran out on pairs
   * (s303).
   */
  static final double AGAIN_STALL_MS = 5;

  /** As {@link #hostStallsDuring(List)}, for a stall of {@code minMs} or more. */
  static String hostStallsDuring(List<TargetCellResult> pass, double minMs) {
    String worst = null;
    double longest = 0;
    for (TargetCellResult r : pass) {
      for (RunRecord run : r.runs()) {
        if (run.excluded() || run.stalls() == null) continue;
        double ms = run.stalls().host().maxMs();
        if (ms >= minMs && ms > longest) {
          longest = ms;
          worst = r.cell().label() + ": " + run.stalls().host().describe();
        }
      }
    }
    return worst;
  }

  /**
   * Whether an inconclusive answer may name this host's stalls through the first pass's cells: one
   * that no one mechanism explained, whatever pairs were tried and refused after (nginx with gzip,
   * its plain pass inconclusive where the host's stalls had merged the 4 KiB cell's frames 16 at a
   * time, a pair then refused on another cell, said nothing of the stalls: s252 and s264), or one
   * whose model was never replayed; never one that names models alike or names a stall already.
   */
  static boolean mayNameFirstPassStalls(
      FlushTrigger answer, boolean unexplained, boolean alikeNamed) {
    return answer.kind() == TriggerKind.INCONCLUSIVE
        && (answer.replay() == null || unexplained)
        && !alikeNamed
        && !answer.verdict().contains(MapSession.HOST_STALLED);
  }
}
