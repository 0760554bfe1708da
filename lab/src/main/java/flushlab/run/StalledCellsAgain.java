package flushlab.run;

import flushlab.client.Staircase;
import flushlab.map.CellEvidence;
import flushlab.map.CellMatch;
import flushlab.map.IdleCut;
import flushlab.map.Replay;
import flushlab.map.ReplayVerdict;
import java.util.ArrayList;
import java.util.List;

/**
 * A model its replay refused only on cells where this host stalled in the target's kept run: the
 * stall, not the target, may be what differed (a hold of 200 ms across agents was refused for a 4
 * KiB cell's first frame, 254.2 ms on the target and 200.7 on the model, and three models of two
 * timers that the late frame fitted were then named alike: a fresh-clone suite, s237). Each such
 * cell is measured on the target once more, once this host has been quiet, and compared with the
 * model's replay of it as it was; the stalled run stays in the results, excluded for the stall. A
 * cell that differs again refuses the model as before, on the new measurement.
 */
final class StalledCellsAgain {
  private StalledCellsAgain() {}

  /**
   * The verdict and replayed cells after measuring again.
   *
   * @param measuredAgain how many cells were measured again
   */
  record Again(ReplayVerdict verdict, List<ReplayedCell> cells, int measuredAgain) {}

  /**
   * {@code o}, the replay of {@code chain} on every cell of {@code map}, refused: its differing
   * cells measured on the target again where this host stalled in each of them; null when one did
   * not stall, the budget has no room, or a run came back with nothing.
   */
  static Again measure(
      MapLab lab, MapContext map, String chain, boolean socketStage, ModelReplay.Outcome o)
      throws Exception {
    ReplayVerdict v = o.verdict();
    // the target's cells as the replay compared them, in its order
    List<TargetCellResult> compared = o.onTarget();
    List<Integer> differing = new ArrayList<>();
    List<String> stalls = new ArrayList<>();
    double needSeconds = 0;
    for (int i = 0; i < v.cells().size(); i++) {
      CellMatch m = v.cells().get(i);
      if (m.difference() == null) continue;
      if (m.label().equals(IdleCut.LABEL)
          || i >= compared.size()
          || i >= o.onModel().size()
          || !map.results().contains(compared.get(i))) return null;
      String stall = PassStalls.hostStallsDuring(List.of(compared.get(i)));
      if (stall == null) return null;
      differing.add(i);
      stalls.add(stall);
      needSeconds += compared.get(i).cell().stream().streamNanos() / 1e9 + 1;
    }
    if (differing.isEmpty() || ModelReplay.secondsLeft(map.deadline()) < needSeconds + 1)
      return null;
    Replay.Tolerance tolerance = Replay.Tolerance.fromDirectPath(map.cert().spreadMs());
    List<CellMatch> matches = new ArrayList<>(v.cells());
    List<ReplayedCell> cells = new ArrayList<>(o.cells());
    int measuredAgain = 0;
    for (int k = 0; k < differing.size(); k++) {
      int i = differing.get(k);
      TargetCellResult old = compared.get(i);
      String label = v.cells().get(i).label();
      String stall = stalls.get(k);
      map.announce()
          .accept(
              PassStalls.differedWhereStalled(
                  label, "the target", stall, "measured on the target again"));
      List<RunRecord> runs = new ArrayList<>();
      // a kept run this host stalled through is excluded for it; another kept run stays
      for (RunRecord r : old.runs())
        runs.add(
            r.excluded() || PassStalls.hostStallsDuring(oneRun(old, r)) == null
                ? r
                : r.withExclusion(
                    Exclusion.hostStall(
                        "this host stalled in it ("
                            + r.stalls().host().describe()
                            + ") and the replay of "
                            + chain
                            + " differed there; measured again")));
      List<RunRecord> fresh = new ArrayList<>();
      // as the client it was measured as (the pass that accepts no compression asks so)
      lab.identityPass(old.requestHeaders() != null);
      boolean done;
      try {
        done =
            map.measure()
                .runOnceMoreIfExcluded(
                    map.target(),
                    old.cell(),
                    old.cell().index(),
                    old.runs().size(),
                    label + " again",
                    fresh,
                    map.announce());
      } finally {
        lab.identityPass(false);
      }
      // interrupted, or no data again: the cells not measured again keep their difference
      if (!done) break;
      runs.addAll(fresh);
      TargetCellResult again = TargetCellResult.of(map.target().name(), old.cell(), runs);
      if (old.requestHeaders() != null) again = again.withRequestHeaders(old.requestHeaders());
      if (again.included().frames() == 0) break;
      CellEvidence onTarget = again.evidence(map.cert().emitToRecvMs());
      CellMatch m =
          Replay.compare(
                  chain, List.of(onTarget), List.of(o.onModel().get(i)), socketStage, tolerance)
              .cells()
              .get(0);
      map.announce()
          .accept(
              onTarget.describe()
                  + (m.difference() == null
                      ? "; the model's replay agrees"
                      : "; the model's replay differs again: " + m.difference()));
      matches.set(i, m);
      cells.set(
          i,
          new ReplayedCell(
              label,
              m.difference(),
              Staircase.of(again.included(), ReplayedCell.MAX_FRAMES),
              o.cells().get(i).model()));
      map.results().set(map.results().indexOf(old), again);
      measuredAgain++;
    }
    return measuredAgain == 0
        ? null
        : new Again(new ReplayVerdict(v.model(), matches), cells, measuredAgain);
  }

  /** {@code r}, one run of {@code cell}, as a cell of its own (what its stalls are judged on). */
  private static List<TargetCellResult> oneRun(TargetCellResult cell, RunRecord r) {
    return List.of(TargetCellResult.of(cell.target(), cell.cell(), List.of(r)));
  }
}
