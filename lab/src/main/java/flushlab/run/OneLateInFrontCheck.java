package flushlab.run;

import flushlab.map.FlushTrigger;
import flushlab.map.OneLateInFront;
import flushlab.map.Replay;
import flushlab.map.ShaperModel;
import java.util.ArrayList;
import java.util.List;

/**
 * A hold timer's model that reproduced every cell, held to the cell that would show one-late in
 * front of it ({@link OneLateInFront}) before it is given: the cell is measured on the target as
 * the scenario's client and replayed on the hold's model. Reproduced, the hold stands, that cell in
 * its replay; refused, one-late then the hold is replayed on every cell and given when it
 * reproduces them all; neither, and the answer is inconclusive, saying how each differed. A budget
 * with no room for the cell and its replays leaves the answer as it was.
 */
final class OneLateInFrontCheck {
  private OneLateInFrontCheck() {}

  /** The answer after the check, its replay's verdict and cells (the ones it gives, if any). */
  record Checked(FlushTrigger answer, Replay.Verdict verdict, List<ReplayedCell> cells) {}

  /**
   * The check of {@code answer}, whose model's replay ({@code given}, {@code cells}) reproduced
   * every cell measured so far; null when it does not apply or could not be made (the budget, no
   * data, a replay this host cut short), the answer then as it was.
   */
  static Checked check(
      MapLab lab,
      ModelReplay replays,
      MapContext map,
      FlushTrigger answer,
      Replay.Verdict given,
      List<ReplayedCell> cells)
      throws Exception {
    if (lab.interrupted() || !OneLateInFront.mayHide(answer)) return null;
    var plan = OneLateInFront.tellingCell(answer.timerMs());
    // the cell on the target and on the hold's model, and one-late's replay of every cell
    double cellSeconds = plan.streamMs() / 1000 + 1;
    if (ModelReplay.secondsLeft(map.deadline()) < 3 * cellSeconds + 2) return null;
    map.announce()
        .accept(
            "map: one-late in front of a hold would let frames further apart than the hold go one"
                + " interval late, not after the hold; measuring: "
                + plan);
    MapContext.OneMore more =
        map.oneCellMore(
            lab, lab.scenario().cells().get(0), plan, "tell a hold from one-late in front of it");
    if (more == null) return null;
    String hold = ShaperModel.of(answer).chain();
    ModelReplay.Outcome onIt =
        replays.replay(
            map.target(),
            hold,
            false,
            answer.idle(),
            List.of(more.onTarget()),
            map.cert(),
            map.announce(),
            map.deadline(),
            false);
    if (onIt.unfinished() != null || onIt.verdict() == null || onIt.notReplayed() > 0) return null;
    map.announce().accept("replay: " + onIt.text());
    Replay.Verdict withIt = joined(given, onIt.verdict());
    if (withIt.verified())
      return new Checked(answer.withReplay(withIt), withIt, joined(cells, onIt.cells()));
    String twin = OneLateInFront.inFront(hold);
    map.announce().accept("map: the hold alone differs there; replaying " + twin);
    ModelReplay.Outcome all =
        replays.replay(
            map.target(),
            twin,
            false,
            answer.idle(),
            map.results(),
            map.cert(),
            map.announce(),
            map.deadline(),
            false);
    FlushTrigger refused = answer.withReplay(withIt);
    if (all.unfinished() != null || all.verdict() == null || all.notReplayed() > 0)
      return new Checked(refused, null, List.of());
    map.announce().accept("replay: " + all.text());
    if (!all.verdict().verified()) {
      List<String> differences = new ArrayList<>();
      for (Replay.CellMatch c : all.verdict().cells())
        if (c.difference() != null)
          differences.add("replay of " + c.label() + " on " + twin + ": " + c.difference());
      return new Checked(
          refused.withUnverifiedModels(
              List.of(all.verdict().text().replaceFirst("^not verified: the model ", "")),
              differences),
          null,
          List.of());
    }
    FlushTrigger inFront = OneLateInFront.answer(answer, more.seen()).withReplay(all.verdict());
    return new Checked(inFront, all.verdict(), all.cells());
  }

  private static Replay.Verdict joined(Replay.Verdict a, Replay.Verdict b) {
    List<Replay.CellMatch> both = new ArrayList<>(a.cells());
    both.addAll(b.cells());
    return new Replay.Verdict(a.model(), List.copyOf(both));
  }

  private static <T> List<T> joined(List<T> a, List<T> b) {
    List<T> both = new ArrayList<>(a);
    both.addAll(b);
    return List.copyOf(both);
  }
}
