package flushlab.run;

import flushlab.map.CellEvidence;
import flushlab.map.CellMatch;
import flushlab.map.FlushTrigger;
import flushlab.map.HoldBehindAClock;
import flushlab.map.Replay;
import flushlab.map.ReplayVerdict;
import flushlab.map.ShaperModel;
import flushlab.map.Twin;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A model of one mechanism that reproduced every cell, held to the cell that would show its twin of
 * two stages ({@link Twin}: one-late in front of a hold, a hold before the cork read as a threshold
 * or a timer, a hold behind a clock, two thresholds in series) before it is given: the cell is
 * measured on the target as the scenario's client and replayed on the model. Reproduced, the model
 * stands, that cell in its replay; refused, the twin is replayed on every cell and given when it
 * reproduces them all, or, where no one cell names the twin, the models of two stages are fitted
 * with that cell among the others; neither, and the answer is inconclusive, saying how each
 * differed. A budget with no room for the cell and its replays leaves the answer as it was.
 */
final class TwinCheck {
  private TwinCheck() {}

  /**
   * The answer after the check, its replay's verdict and cells (the ones it gives, if any), and the
   * telling cell as the target showed it where the one mechanism's model differed there (null
   * otherwise): the models of two stages tried after it are fitted with it too.
   */
  record Checked(
      FlushTrigger answer,
      ReplayVerdict verdict,
      List<ReplayedCell> cells,
      CellEvidence differedOn) {}

  /**
   * The check of {@code answer}, whose model's replay ({@code given}, {@code cells}) reproduced
   * every cell measured so far ({@code measured}, as the stream is); null when it does not apply or
   * could not be made (the budget, no data, a replay this host cut short), the answer then as it
   * was.
   */
  static Checked check(
      MapLab lab,
      ModelReplay replays,
      MapContext map,
      FlushTrigger answer,
      ReplayVerdict given,
      List<ReplayedCell> cells,
      List<CellEvidence> measured)
      throws Exception {
    Twin twin = lab.interrupted() ? null : Twin.of(answer, measured);
    if (twin == null) return null;
    // the cell on the target and on the model, and the twin's replay of every cell
    double cellSeconds = twin.cell().streamMs() / 1000 + 1;
    if (ModelReplay.secondsLeft(map.deadline()) < 3 * cellSeconds + 2) return null;
    map.announce().accept("map: " + twin.why() + "; measuring: " + twin.cell());
    MapContext.Tried tried =
        map.tryOneCellMore(lab, lab.scenario().cells().get(0), twin.cell(), "tell the two apart");
    MapContext.OneMore more = tried.more();
    // the cell this host's stalls spoiled: the answer stands, saying its twin was not ruled out (a
    // suite's `one-late -> timer=229ms` was given as the hold alone, both runs of that cell
    // excluded for 9-10 ms stalls, 2026-12-07)
    if (more == null && tried.stalledOut() != null)
      return new Checked(answer.withTwinUnchecked(tried.stalledOut()), given, cells, null);
    if (more == null) return null;
    String model = ShaperModel.of(answer).chain();
    ModelReplay.Outcome onIt = replay(replays, map, answer, model, List.of(more.onTarget()));
    // the model's replay of the cell this host's stalls spoiled: the answer stands, saying its twin
    // was not ruled out (a suite's clock behind a 69 ms hold, the target's telling cell waiting
    // 69.6 ms where the clock alone lets each frame go in 10-31 ms, was given as the clock alone,
    // both runs of its replay there excluded, nothing said: s290)
    if (onIt.unfinished() != null && onIt.unfinished().contains(MapSession.HOST_STALLED))
      return new Checked(answer.withTwinUnchecked(onIt.unfinished()), given, cells, null);
    if (onIt.unfinished() != null || onIt.verdict() == null || onIt.notReplayed() > 0) return null;
    map.announce().accept("replay: " + onIt.text());
    ReplayVerdict onCell = onIt.verdict();
    if (twin.held() != Twin.Held.AS_EVERY_CELL) {
      onCell =
          heldToItsValues(
              twin.held(), model, answer.timerMs(), onCell, more.seen(), onIt.onModel());
      map.announce()
          .accept(
              "map: "
                  + more.onTarget().cell().label()
                  + (twin.held() == Twin.Held.TO_ITS_FRAMES
                      ? " held to the model's own values, its releases' frames counted exactly: "
                      : " held to the model's own values at its own phase, without the slack a"
                          + " clock's period allows a wait: ")
                  + Objects.requireNonNullElse(onCell.cells().get(0).difference(), "agrees"));
    }
    ReplayVerdict withIt = given.with(onCell);
    if (withIt.verified())
      return new Checked(answer.withReplay(withIt), withIt, joined(cells, onIt.cells()), null);
    if (twin.answer() == null) {
      map.announce()
          .accept("map: " + model + " differs there; the models of two stages are fitted with it");
      return new Checked(answer.withReplay(withIt), null, List.of(), more.seen());
    }
    FlushTrigger twinAnswer = twin.answer().apply(more.seen());
    if (twinAnswer == null) {
      map.announce().accept("map: " + model + " differs there, and the cell shows no twin either");
      return new Checked(answer.withReplay(withIt), null, List.of(), more.seen());
    }
    String chain = ShaperModel.of(twinAnswer).chain();
    map.announce().accept("map: " + model + " differs there; replaying " + chain);
    ModelReplay.Outcome all = replay(replays, map, answer, chain, map.results());
    FlushTrigger refused = answer.withReplay(withIt);
    // the twin's replay this host's stalls cut short: neither model is given, nor models of two
    // stages tried in their place (a suite's `timer=263ms,periodic=true -> timer=65ms`, the twin's
    // 4 KiB replay stalled out in both runs, was then answered with a clock then Nagle, 2026-12-07)
    if (all.unfinished() != null && all.unfinished().contains(MapSession.HOST_STALLED))
      return new Checked(
          twinAnswer.withReplayUnfinished(all.unfinished(), all.tryNext()), null, List.of(), null);
    if (all.unfinished() != null || all.verdict() == null || all.notReplayed() > 0)
      return new Checked(refused, null, List.of(), more.seen());
    map.announce().accept("replay: " + all.text());
    if (!all.verdict().verified()) {
      List<String> differences = new ArrayList<>();
      for (CellMatch c : all.verdict().cells())
        if (c.difference() != null)
          differences.add("replay of " + c.label() + " on " + chain + ": " + c.difference());
      return new Checked(
          refused.withUnverifiedModels(List.of(all.verdict().refusal()), differences),
          null,
          List.of(),
          more.seen());
    }
    return new Checked(twinAnswer.withReplay(all.verdict()), all.verdict(), all.cells(), null);
  }

  /**
   * The telling cell's comparison ({@code onCell}, one cell) redone with the model held to its own
   * values: to its releases' frames where {@code held} says so ({@link Replay#heldToItsFrames}), at
   * each run's own phase against a clock of {@code periodMs} otherwise ({@link
   * HoldBehindAClock#difference}); as it was where no replay of the cell came back.
   */
  private static ReplayVerdict heldToItsValues(
      Twin.Held held,
      String model,
      Double periodMs,
      ReplayVerdict onCell,
      CellEvidence seen,
      List<CellEvidence> onModel) {
    if (seen == null || onModel.isEmpty() || onModel.get(0) == null) return onCell;
    String label = onCell.cells().get(0).label();
    String difference =
        held == Twin.Held.TO_ITS_FRAMES
            ? Replay.heldToItsFrames(model, seen, onModel.get(0))
            : HoldBehindAClock.difference(model, periodMs, seen, onModel.get(0));
    return new ReplayVerdict(model, List.of(new CellMatch(label, difference)));
  }

  private static ModelReplay.Outcome replay(
      ModelReplay replays,
      MapContext map,
      FlushTrigger answer,
      String chain,
      List<TargetCellResult> cells)
      throws Exception {
    return replays.replay(
        map.target(),
        chain,
        false,
        answer.idle(),
        cells,
        map.cert(),
        map.announce(),
        map.deadline(),
        false);
  }

  private static <T> List<T> joined(List<T> a, List<T> b) {
    List<T> both = new ArrayList<>(a);
    both.addAll(b);
    return List.copyOf(both);
  }
}
