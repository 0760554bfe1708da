package flushlab.run;

import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.map.FlushTrigger;
import flushlab.map.HoldingPairFit;
import flushlab.map.NagleOrAHold;
import flushlab.map.TwoStageCandidate;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;

/** A model of a byte threshold then Nagle, held to the cell a hold in Nagle's place would fail. */
final class NagleCheck {
  private NagleCheck() {}

  /**
   * A byte threshold then Nagle that reproduced every cell, held to the cell where a hold after the
   * threshold would differ ({@link NagleOrAHold}) when such a pair fits {@code pairCells} too: the
   * cell measured on the target and replayed on the Nagle model; reproduced, the model is given
   * with it; refused, the holds are replayed on every cell and the answer is theirs. Null where no
   * hold fits, the budget has no room for the cell and two replays, or the cell or its replay gave
   * nothing for another reason than this host's stalls: the model is given as it was.
   */
  static PairReplays.Result check(
      MapLab lab,
      ModelReplay replays,
      PairReplays pairs,
      MapContext map,
      FlushTrigger answer,
      AlikeTeller.Reproduced nagle,
      List<CellEvidence> pairCells,
      List<String> budgetCut)
      throws Exception {
    if (!nagle.candidate().socketStage() || pairCells.isEmpty() || lab.interrupted()) return null;
    Target target = map.target();
    List<TwoStageCandidate> holds =
        NagleOrAHold.holdsAfterAThreshold(
            HoldingPairFit.candidates(target.name(), pairCells, target.path()));
    CellPlan plan = NagleOrAHold.tellingCell(nagle.candidate().answer(), holds);
    if (plan == null || ModelReplay.secondsLeft(map.deadline()) < 3 * (plan.streamMs() / 1000 + 1))
      return null;
    map.announce()
        .accept(
            "map: "
                + String.join(", ", holds.stream().map(TwoStageCandidate::chain).toList())
                + " fits every cell too; Nagle lets a write after a pause go at once, a hold keeps"
                + " it: measuring "
                + plan);
    MapContext.Tried tried =
        map.tryOneCellMore(lab, lab.scenario().cells().get(0), plan, "tell Nagle from a hold");
    MapContext.OneMore more = tried.more();
    // this host's stalls spoiled the cell, or (below) its replay: the model is given saying the
    // hold was not ruled out, never as if the cell had agreed
    if (more == null && tried.stalledOut() != null)
      return givenUnchecked(answer, nagle, budgetCut, tried.stalledOut());
    if (more == null) return null;
    ModelReplay.Outcome o =
        replays.replay(
            target,
            nagle.chain(),
            true,
            answer.idle(),
            List.of(more.onTarget()),
            map.cert(),
            map.announce(),
            map.deadline(),
            false);
    if (o.unfinished() != null && o.unfinished().contains(MapSession.HOST_STALLED))
      return givenUnchecked(answer, nagle, budgetCut, o.unfinished());
    if (o.unfinished() != null || o.verdict() == null || o.notReplayed() > 0) return null;
    map.announce().accept("replay: " + o.text());
    if (o.verdict().verified()) {
      List<ReplayedCell> cells = new ArrayList<>(nagle.cells());
      cells.addAll(o.cells());
      AlikeTeller.Reproduced held =
          new AlikeTeller.Reproduced(
              nagle.candidate(), nagle.chain(), nagle.verdict().with(o.verdict()), cells);
      return new PairReplays.Result(PairReplays.given(answer, held, budgetCut), held, false);
    }
    return pairs.replay(map, answer, holds, List.of(), null);
  }

  /** The Nagle model given as replayed, saying the hold after the threshold was not ruled out. */
  private static PairReplays.Result givenUnchecked(
      FlushTrigger answer, AlikeTeller.Reproduced nagle, List<String> budgetCut, String where) {
    FlushTrigger given = PairReplays.given(answer, nagle, budgetCut).withTwinUnchecked(where);
    return new PairReplays.Result(given, nagle, false);
  }
}
