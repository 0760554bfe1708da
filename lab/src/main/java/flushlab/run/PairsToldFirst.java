package flushlab.run;

import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.map.HoldingPairFit;
import flushlab.map.TwoStageCandidate;
import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Many pairs of holding stages that the map's cells fit alike, told apart before any is replayed:
 * the cell where their simulations part is measured on the target, and the pairs are fitted again
 * with it, as long as enough stay alike and the budget has room. Each replay measures every cell on
 * its model (about 10 s on the map's default cells): seven pairs alike of one-late in front of a
 * 228 ms hold were replayed one by one, and the 60 s budget ran out before the cell that told them
 * apart (a fresh-clone suite, s227).
 */
final class PairsToldFirst {
  private PairsToldFirst() {}

  /**
   * This many pairs alike or more are told apart before any is replayed. Three are replayed as
   * cheaply: a telling cell measured first joins every replay after it (a 2.1 s and a 4.2 s
   * stream), and with three pairs that two cells did not part, one-late behind a 150 ms clock spent
   * its 60 s budget (a fresh-clone suite, s242).
   */
  static final int AT_LEAST = 4;

  /** A telling cell measured on the target: what it showed, or null where it gave nothing. */
  interface Measurer {
    CellEvidence measure(CellPlan plan) throws Exception;
  }

  /** The cells with those measured to tell the pairs apart, and the pairs fitted on them all. */
  record Told(List<CellEvidence> cells, List<TwoStageCandidate> pairs) {}

  /**
   * {@code pairs}, fitted on {@code cells}, told apart by up to {@link
   * AlikeTeller#MAX_TELLING_CELLS} cells that {@code roomFor} allows. A cell no pair's simulation
   * matches leaves the pairs as they were (each is then replayed on every cell, that one included:
   * the replay, not the simulation, refuses them).
   */
  static Told tell(
      String target,
      NetworkPath path,
      List<CellEvidence> cells,
      List<TwoStageCandidate> pairs,
      Predicate<CellPlan> roomFor,
      Measurer measurer,
      Consumer<String> announce)
      throws Exception {
    List<CellPlan> told = new ArrayList<>();
    while (pairs.size() >= AT_LEAST && told.size() < AlikeTeller.MAX_TELLING_CELLS) {
      CellPlan plan =
          AlikeTeller.tellingCell(pairs.stream().map(TwoStageCandidate::chain).toList(), told);
      if (plan == null || !roomFor.test(plan)) break;
      told.add(plan);
      announce.accept(
          "map: "
              + pairs.size()
              + " pairs of two stages fit every cell alike; measuring where their simulations part"
              + " before replaying any: "
              + plan);
      CellEvidence seen = measurer.measure(plan);
      if (seen == null) break;
      List<CellEvidence> with = new ArrayList<>(cells);
      with.add(seen);
      List<TwoStageCandidate> fitting = HoldingPairFit.candidates(target, with, path);
      if (fitting.isEmpty()) {
        announce.accept("map: no pair's simulation releases " + plan + " as the target did");
        break;
      }
      cells = with;
      pairs = fitting;
    }
    return new Told(cells, pairs);
  }
}
