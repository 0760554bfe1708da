package flushlab.run;

import flushlab.map.CellPlan;
import flushlab.map.CompressionFinding;
import flushlab.map.FlushTrigger;
import flushlab.map.NextWriteTelling;
import flushlab.map.PairTellingCell;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The map's answers that give no one model of two stages: several that reproduced every cell alike
 * (with the cell that would tell two apart), or one whose twins this host's stalls or the budget
 * kept from being replayed. Beside a compressor each is the accepting client's part of the finding.
 */
final class UndecidedAnswers {
  private UndecidedAnswers() {}

  /**
   * Two or more models of two stages reproduced every cell alike: all are named, none given, with
   * the cell that would tell two apart. Candidates whose replay this host's stalls stopped ({@code
   * stalledOut}) or the budget cut short ({@code budgetCut}) are named too, as not known: one may
   * be the target's own (`timer=129ms -> one-late`, both its fits stalled out, was answered with a
   * clock then one-late and a hold then a clock as alike: a fresh-clone suite, 2026-12-05).
   */
  static FlushTrigger namedAlike(
      FlushTrigger answer,
      List<String> chains,
      CellPlan telling,
      List<String> stalledOut,
      List<String> budgetCut) {
    return namedAlike(answer, chains, telling, null, stalledOut, budgetCut);
  }

  /**
   * As {@link #namedAlike(FlushTrigger, List, CellPlan, List, List)}, {@code toldNothing} the cell
   * measured to tell them apart, which both reproduced too (or null).
   */
  static FlushTrigger namedAlike(
      FlushTrigger answer,
      List<String> chains,
      CellPlan telling,
      String toldNothing,
      List<String> stalledOut,
      List<String> budgetCut) {
    List<String> next = new ArrayList<>();
    if (telling != null) next.add(telling.toString());
    if (!stalledOut.isEmpty()) next.add("map again on a quieter host");
    if (!budgetCut.isEmpty()) next.add(FlushTrigger.BUDGET_NEXT);
    return besideTheCompressor(
        answer,
        FlushTrigger.inconclusive(
            answer.target(),
            (chains.size() == 2 ? "two" : chains.size())
                + " models of two mechanisms each reproduce every cell alike: "
                + String.join(", ", chains.subList(0, chains.size() - 1))
                + " and "
                + chains.get(chains.size() - 1)
                + (telling == null ? "" : " (a cell of " + telling + " would tell them apart)")
                + (toldNothing == null
                    ? ""
                    : " ("
                        + toldNothing
                        + ", where their simulations part, was measured and "
                        + (chains.size() == 2 ? "both" : "all " + chains.size())
                        + " reproduce it)")
                + (stalledOut.isEmpty()
                    ? ""
                    : "; whether others do too is not known: " + String.join("; ", stalledOut))
                + (budgetCut.isEmpty() ? "" : "; " + FlushTrigger.budgetCutShort(budgetCut)),
            answer.evidence(),
            next));
  }

  /**
   * One model of two stages reproduced every cell, but this host's stalls kept {@code stalledOut}
   * (each a candidate and what stopped its replay) from being compared on every cell: given alone,
   * the model would claim a uniqueness the map did not see. `timer=47ms ->
   * compress=gzip,flush=timer,after=94ms` was answered as the other order when this host stalled
   * through both runs of the hidden order's replay of one cell (a fresh-clone suite, 2026-12-05).
   */
  static FlushTrigger unsettledByStalls(
      FlushTrigger answer, String reproduced, List<String> stalledOut) {
    return besideTheCompressor(
        answer,
        FlushTrigger.inconclusive(
            answer.target(),
            "the model "
                + (answer.idle() == null ? reproduced : answer.idle().appliedTo(reproduced))
                + " reproduces every cell, but "
                + String.join("; ", stalledOut)
                + ", so whether it alone does is not known",
            answer.evidence(),
            List.of("map again on a quieter host")));
  }

  /**
   * An undecided answer of models of two stages, as {@code answer} had it: beside a compressor the
   * answer's sentence is the finding's, the models named as what the accepting client's pass is.
   */
  static FlushTrigger besideTheCompressor(FlushTrigger answer, FlushTrigger undecided) {
    CompressionFinding c = answer.compression();
    if (c == null) return undecided;
    if (c.coding() == null) return undecided.withCompression(c);
    return undecided.withCompression(
        CompressionFinding.of(
            c.coding(), c.acceptingClient(), undecided, c.othersClient(), c.others(), null));
  }

  /** The cell that would tell two models apart: of two holding stages, or beside a compressor. */
  static CellPlan tellingCell(String a, String b) {
    return tellingCell(a, b, plan -> false);
  }

  /**
   * As {@link #tellingCell(String, String)}, none of the cells {@code measured} already, where both
   * reproduced the target: where they part less than there, they tell no more.
   */
  static CellPlan tellingCell(String a, String b, Predicate<CellPlan> measured) {
    CellPlan pair = PairTellingCell.tellingCell(a, b, measured);
    if (pair != null) return pair;
    CellPlan next = NextWriteTelling.of(a, b);
    return next == null || measured.test(next) ? null : next;
  }
}
