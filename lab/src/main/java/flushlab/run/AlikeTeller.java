package flushlab.run;

import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.map.PairTellingCell;
import flushlab.map.Replay;
import flushlab.map.ReplayVerdict;
import flushlab.map.TwoStageCandidate;
import flushlab.scenario.Cell;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Models of two stages that reproduced every measured cell alike, told apart by a cell more (issue
 * 35: the map measures more where it can, rather than leave a choice it could make): the cell where
 * their simulations part most widely is measured on the target as the pass's client, and each model
 * is replayed on it alone. The one that reproduces it is the answer, its replay the measured cells'
 * and this one's; two or more, and those stay alike, to be parted by the next telling cell (up to
 * {@link #MAX_TELLING_CELLS}); none, and no model is given. A cell that left no data (the budget,
 * this host's stalls, lost frames) decides nothing. `timer=52ms -> cork` was answered with a hold
 * and a clock in front of the cork alike, the cell that would part them named but not measured (a
 * map, 2026-12-05); `timer=81ms -> byte-threshold=3944B` with four models alike that one cell could
 * not part.
 */
final class AlikeTeller {
  private AlikeTeller() {}

  /** How many telling cells one map measures at most, each parting the models still alike. */
  static final int MAX_TELLING_CELLS = 3;

  /**
   * A cell that would tell two of {@code chains} apart and is not among {@code measured} (the first
   * pair, in order, that has one), or null: measured, it rules out at least one of that pair, or
   * shows that no model of them is the target. A cell measured already, where the simulations
   * parted and the target did not, tells no more measured again.
   */
  static CellPlan tellingCell(List<String> chains, List<CellPlan> measured) {
    for (int i = 0; i < chains.size(); i++)
      for (int j = i + 1; j < chains.size(); j++) {
        CellPlan c = UndecidedAnswers.tellingCell(chains.get(i), chains.get(j));
        if (c != null && !measured.contains(c)) return c;
      }
    return null;
  }

  /**
   * For models that each reproduced every cell: a cell that would tell two of {@code chains} apart,
   * none of {@code measured} nor of {@code cells} (the map's cells, which every replay compared),
   * and parting them further than any of those, which every model reproduced ({@link
   * PairTellingCell#tellingCell(String, String, Predicate)}); null when none does. Pairs fitted by
   * simulation alone, before any replay ({@link PairsToldFirst}), take the next pair's cell instead
   * ({@link #tellingCell(List, List)}): there a cell only one of a pair fitted is still to come,
   * and a slower cell measured first cost one telling cell more (`timer=219ms,periodic=true ->
   * timer=202ms`: 150, 400 and 300 ms cells where 150 and 300 had told, and two candidates cut by
   * the budget: `flushlab map`, 2026-12-07).
   */
  static CellPlan tellingCell(
      List<String> chains, List<CellPlan> measured, List<CellEvidence> cells) {
    Predicate<CellPlan> already =
        plan ->
            measured.contains(plan)
                || cells.stream().anyMatch(c -> plan.toString().equals(c.label()));
    for (int i = 0; i < chains.size(); i++)
      for (int j = i + 1; j < chains.size(); j++) {
        CellPlan c = UndecidedAnswers.tellingCell(chains.get(i), chains.get(j), already);
        if (c != null) return c;
      }
    return null;
  }

  /** A model that reproduced every measured cell: its candidate, the chain replayed, its replay. */
  record Reproduced(
      TwoStageCandidate candidate, String chain, ReplayVerdict verdict, List<ReplayedCell> cells) {}

  /** What the telling cell decided. */
  sealed interface Told {
    /** One model reproduced it too: the answer, its replay now with the telling cell in it. */
    record One(Reproduced model) implements Told {}

    /**
     * Two or more did: those stay alike ({@code still}, the telling cell's replay in each), and the
     * cell is no longer the one to measure.
     */
    record Both(String label, List<Reproduced> still) implements Told {}

    /** Neither did: how each differed, and what the target showed in the cell. */
    record Neither(List<String> tried, List<String> cells, CellEvidence seen) implements Told {}
  }

  /**
   * Measures {@code plan} on the target as {@code base}'s client (added to {@code results}) and
   * replays each of {@code alike} on it; null when the budget has no room for the cell and both
   * replays, or the cell or a replay left nothing to compare.
   */
  static Told tell(
      MapLab lab,
      ModelReplay replays,
      MapContext map,
      Cell base,
      CellPlan plan,
      List<Reproduced> alike)
      throws Exception {
    Target target = map.target();
    Consumer<String> announce = map.announce();
    long deadline = map.deadline();
    double cellSeconds = plan.streamMs() / 1000 + 1;
    if (lab.interrupted() || ModelReplay.secondsLeft(deadline) < (1 + alike.size()) * cellSeconds)
      return null;
    announce.accept(
        "map: "
            + String.join(" and ", alike.stream().map(Reproduced::chain).toList())
            + " reproduce every cell alike; measuring the cell that tells them apart: "
            + plan);
    MapContext.OneMore more = map.oneCellMore(lab, base, plan, "tell them apart");
    if (more == null) return null;
    TargetCellResult onTarget = more.onTarget();
    List<ReplayVerdict> onIt = new ArrayList<>();
    List<List<ReplayedCell>> cellsOnIt = new ArrayList<>();
    List<CellEvidence> modelsOnIt = new ArrayList<>();
    for (Reproduced m : alike) {
      ModelReplay.Outcome o =
          replays.replay(
              target,
              m.chain(),
              m.candidate().socketStage(),
              null,
              List.of(onTarget),
              map.cert(),
              announce,
              deadline,
              false);
      if (o.unfinished() != null || o.verdict() == null || o.notReplayed() > 0) return null;
      announce.accept("replay: " + o.text());
      onIt.add(o.verdict());
      cellsOnIt.add(o.cells());
      modelsOnIt.add(o.onModel().isEmpty() ? null : o.onModel().get(0));
    }
    Told told = decide(alike, onIt, cellsOnIt, onTarget.cell().label(), more.seen());
    if (!(told instanceof Told.Both both)) return told;
    Told held = heldToTheirValues(both, alike, modelsOnIt, more.seen());
    // how each model held to its own values did, said either way: where none or several still
    // reproduce the cell, the reader sees why they stay alike
    List<String> each = new ArrayList<>();
    for (Reproduced m : both.still()) {
      String d = heldDifference(m, alike, modelsOnIt, more.seen());
      each.add(m.chain() + ": " + (d == null ? "agrees" : d));
    }
    announce.accept(
        "map: "
            + both.label()
            + " held to each model's own values, without the slack a stage's value or a clock's"
            + " period allows a wait: "
            + String.join("; ", each)
            + (held instanceof Told.One one
                ? "; " + one.model().chain() + " alone reproduces it"
                : "; they stay alike"));
    return held;
  }

  /**
   * What the telling cell's replays ({@code onIt}, model by model, each of that cell alone, with
   * {@code cellsOnIt} its staircases) decide: the one model that reproduced it, its replay the
   * measured cells' and this one's; neither, with how each differed and what the target showed
   * ({@code seen}); or both, still alike.
   */
  static Told decide(
      List<Reproduced> alike,
      List<ReplayVerdict> onIt,
      List<List<ReplayedCell>> cellsOnIt,
      String label,
      CellEvidence seen) {
    List<Reproduced> again = new ArrayList<>();
    List<String> tried = new ArrayList<>();
    List<String> differences = new ArrayList<>();
    for (int i = 0; i < alike.size(); i++) {
      Reproduced m = alike.get(i);
      ReplayVerdict v = onIt.get(i);
      if (v.verified()) {
        List<ReplayedCell> cells = new ArrayList<>(m.cells());
        cells.addAll(cellsOnIt.get(i));
        again.add(
            new Reproduced(m.candidate(), m.chain(), m.verdict().with(v), List.copyOf(cells)));
      } else {
        tried.add(v.refusal());
        differences.addAll(v.cellLines(m.chain()));
      }
    }
    if (again.size() == 1) return new Told.One(again.get(0));
    if (again.isEmpty()) return new Told.Neither(tried, differences, seen);
    return new Told.Both(label, List.copyOf(again));
  }

  /**
   * Models that each reproduced the telling cell ({@code both}), parted there once more, each held
   * to its own values ({@link Replay#heldToItsValues}): the cell was measured where their
   * simulations part, and the slack a replay allows a wait for where a stage's value or a clock's
   * phase fell can cover that parting. The one model that still reproduces it is the answer;
   * otherwise {@code both} as it was. {@code modelsOnIt}: each of {@code alike}'s replay of the
   * cell (null where none came back); {@code seen}: the target's.
   */
  static Told heldToTheirValues(
      Told.Both both, List<Reproduced> alike, List<CellEvidence> modelsOnIt, CellEvidence seen) {
    if (seen == null) return both;
    List<Reproduced> held = new ArrayList<>();
    for (Reproduced m : both.still())
      if (heldDifference(m, alike, modelsOnIt, seen) == null) held.add(m);
    return held.size() == 1 ? new Told.One(held.get(0)) : both;
  }

  /**
   * What differs on the telling cell between the target's ({@code seen}) and model {@code m}'s
   * replay of it, held to its own values: null when they agree, "no replay" where none came back.
   */
  private static String heldDifference(
      Reproduced m, List<Reproduced> alike, List<CellEvidence> modelsOnIt, CellEvidence seen) {
    CellEvidence onModel = null;
    for (int k = 0; k < alike.size(); k++)
      if (alike.get(k).chain().equals(m.chain())) onModel = modelsOnIt.get(k);
    return onModel == null ? "no replay" : Replay.heldToItsValues(m.chain(), seen, onModel);
  }
}
