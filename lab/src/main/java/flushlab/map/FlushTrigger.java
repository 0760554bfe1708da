package flushlab.map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * What makes a target release bytes, inferred from measured cells, with the evidence a person can
 * check and, when the data cannot decide, the cells to measure next.
 *
 * @param kind the mechanism named, or inconclusive
 * @param thresholdBytes the byte threshold as a proxy's buffer counts it (wire bytes from upstream,
 *     chunk framing included), or a window's bytes per update, or a decoded threshold's bytes of
 *     events before compression, or null
 * @param thresholdBodyBytes the same in event bytes (what users configure), or null
 * @param timerMs the hold time from the first held byte, or a periodic timer's period, or a
 *     window's update period, or null
 * @param events the frames per release of an event-count trigger, or null
 * @param next cells that would decide (or locate) what these cells could not, as "frame_size=…
 *     interval=…"
 * @param compression what the target did for clients that accept compression and for those that do
 *     not, when the map asked as both; null when it did not (a target that was never asked)
 * @param replay what replaying the answer's model against the target's cells showed, or null when
 *     it was not replayed
 * @param then a second mechanism after the one {@code kind} names (the client socket's Nagle after
 *     a proxy's buffer), or null: given only when the model of both, replayed, reproduced every
 *     cell
 * @param idle what a silent stream beside the cells showed (cut by an idle timeout or not), or null
 *     when none was watched
 * @param before a mechanism in front of the one {@code kind} names (first-content before a byte
 *     threshold), or null
 * @param stages the model as a chain where the fields above cannot hold it (two timers in series),
 *     or null
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@RecordBuilder
public record FlushTrigger(
    String target,
    TriggerKind kind,
    Double thresholdBytes,
    Double thresholdBodyBytes,
    Double timerMs,
    Integer events,
    String verdict,
    List<String> evidence,
    List<String> next,
    CompressionFinding compression,
    String replay,
    TriggerKind then,
    IdleCut idle,
    TriggerKind before,
    String stages) {

  /**
   * This answer, its model the chain {@code stages} (two stages whose values the fields above
   * cannot both hold).
   */
  public FlushTrigger withStages(String chain) {
    FlushTriggerBuilder c = FlushTriggerBuilder.builder(this);
    c.stages(chain);
    return c.build();
  }

  /**
   * This answer with {@code first} in front of it (first-content before a threshold), with the
   * verdict that names both.
   */
  public FlushTrigger precededBy(TriggerKind first, String bothVerdict) {
    // the stages' chain, if any, was the answer without the stage in front: it goes
    return FlushTriggerBuilder.builder(this)
        .verdict(bothVerdict)
        .before(first)
        .stages(null)
        .build();
  }

  /**
   * The same answer with what a silent stream beside its cells showed: the evidence says it, and a
   * cut (an idle timeout) ends the verdict and joins the model ({@link IdleCut#appliedTo}).
   */
  public FlushTrigger withIdle(IdleCut cut) {
    if (cut == null) return this;
    List<String> more = new ArrayList<>(evidence);
    more.add(cut.describe());
    String v = cut.verdictNote() == null ? verdict : verdict + "; " + cut.verdictNote();
    FlushTriggerBuilder c = FlushTriggerBuilder.builder(this);
    c.verdict(v);
    c.evidence(List.copyOf(more));
    c.idle(cut);
    return c.build();
  }

  /** This answer followed by {@code second} (a socket stage), with the verdict that names both. */
  public FlushTrigger followedBy(TriggerKind second, String bothVerdict) {
    FlushTriggerBuilder c = FlushTriggerBuilder.builder(this);
    c.verdict(bothVerdict);
    c.then(second);
    return c.build();
  }

  /**
   * The answer when its model's replay has no result to compare (both runs of a cell excluded, or
   * no frame read): not given, as a pass that ended so is not; {@code why} says which cell and why.
   */
  public FlushTrigger withReplayUnfinished(String why, String tryNext) {
    List<String> more = new ArrayList<>(evidence);
    more.add("was: " + verdict);
    return new FlushTrigger(
        target,
        TriggerKind.INCONCLUSIVE,
        null,
        null,
        null,
        null,
        "inconclusive: not verified: " + why,
        List.copyOf(more),
        List.of(tryNext),
        compression,
        "not verified: " + why,
        null,
        idle,
        null,
        null);
  }

  /**
   * The answer after its model was replayed (as `map` does unless --no-verify): kept, with the
   * replay's sentence, when the model reproduced every cell; otherwise inconclusive, saying which
   * cell differed.
   */
  public FlushTrigger withReplay(ReplayVerdict v) {
    if (v.verified()) {
      FlushTriggerBuilder c = FlushTriggerBuilder.builder(this);
      c.replay(v.text());
      return c.build();
    }
    List<String> more = new ArrayList<>(evidence);
    more.add("was: " + verdict);
    for (CellMatch c : v.cells())
      more.add(
          "replay of " + c.label() + ": " + (c.difference() == null ? "agrees" : c.difference()));
    return new FlushTrigger(
        target,
        TriggerKind.INCONCLUSIVE,
        null,
        null,
        null,
        null,
        "inconclusive: " + v.text() + " (a mechanism the map does not model, or two at once)",
        List.copyOf(more),
        next,
        compression,
        v.text(),
        null,
        idle,
        null,
        null);
  }

  /**
   * An answer no one mechanism gave while this host stalled during its cells ({@code where}: the
   * cell and the stall's figures): the verdict says the spread may be the host's, and to map again.
   */
  /**
   * A refused replay while this host stalled in the target's run of a cell the replay found
   * different: the difference may be the host's, which the verdict says rather than leaving it to
   * the target or the model.
   */
  public FlushTrigger withHostStallsWhereTheReplayDiffered(String where) {
    return withNote(
        "this host stalled while a cell the replay found different was measured on the target ("
            + where
            + "): the difference may be the host's, not the target's",
        "map again on a quieter host");
  }

  /**
   * An answer whose model reproduced every cell, but the cell that would tell it from a model of
   * two stages that releases alike ({@link Twin}) was spoiled by this host's stalls in every run
   * ({@code where}: the cell and the last run's exclusion): it stands, saying that twin is not
   * ruled out.
   */
  public FlushTrigger withTwinUnchecked(String where) {
    return withNote(
        "this host stalled in every run of the cell that would tell this model from a model of two"
            + " stages that releases alike on the other cells ("
            + where
            + "): that one is not ruled out",
        "map again on a quieter host");
  }

  public FlushTrigger withHostStalls(String where) {
    return withNote(
        "this host stalled while the cells were measured ("
            + where
            + "): the spread that no one mechanism explains may "
            + "be the host's, not the target's",
        "map again on a quieter host");
  }

  /**
   * A model that reproduced every cell while the budget ran out before {@code untried} (other
   * models the cells allowed) were replayed: it stands, verified, and the verdict says that whether
   * it alone does is not known, and how to find out.
   */
  public FlushTrigger withUntriedForBudget(List<String> untried) {
    return withNote(
        budgetCutShort(untried)
            + ", so whether this model alone reproduces the target is not known",
        BUDGET_NEXT);
  }

  /** What to do about models the budget left unreplayed. */
  public static final String BUDGET_NEXT = "map again with a longer --budget to replay them too";

  /** "the budget ran out before A and B could be replayed". */
  public static String budgetCutShort(List<String> untried) {
    return "the budget ran out before " + String.join(" and ", untried) + " could be replayed";
  }

  /**
   * A refused answer whose replay parted two kinds of client: the verdict says so, and what to
   * measure next.
   */
  public FlushTrigger withClientsApart(ClientsApart apart) {
    return withNote(apart.sentence(), apart.tryNext());
  }

  /**
   * The same answer, its verdict ending with {@code sentence} and {@code tryNext} added to what to
   * measure next.
   */
  private FlushTrigger withNote(String sentence, String tryNext) {
    List<String> more = new ArrayList<>(next);
    more.add(tryNext);
    FlushTriggerBuilder c = FlushTriggerBuilder.builder(this);
    c.verdict(verdict + "; " + sentence);
    c.next(List.copyOf(more));
    return c.build();
  }

  public FlushTrigger(
      String target,
      TriggerKind kind,
      Double thresholdBytes,
      Double thresholdBodyBytes,
      Double timerMs,
      Integer events,
      String verdict,
      List<String> evidence,
      List<String> next) {
    this(
        target,
        kind,
        thresholdBytes,
        thresholdBodyBytes,
        timerMs,
        events,
        verdict,
        evidence,
        next,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  /**
   * The same answer with what compression showed: when the target compressed, the verdict says what
   * it does for each kind of client; when it did not, the verdict stays and the evidence says so.
   */
  public FlushTrigger withCompression(CompressionFinding c) {
    if (c.coding() != null) {
      FlushTriggerBuilder x = FlushTriggerBuilder.builder(this);
      x.verdict(c.verdict());
      x.compression(c);
      return x.build();
    }
    List<String> more = new ArrayList<>(evidence);
    String none =
        "compression: none; asked as "
            + c.acceptingClient()
            + ", the target answered without a Content-Encoding";
    // an answer made from one that said it already (models named alike) says it once
    if (!more.contains(none)) more.add(none);
    FlushTriggerBuilder x = FlushTriggerBuilder.builder(this);
    x.evidence(List.copyOf(more));
    x.compression(c);
    return x.build();
  }

  /**
   * An inconclusive answer that also says which models of two mechanisms were replayed against the
   * target and how each differed ({@code tried}: one sentence each; {@code cells}: each replayed
   * cell's comparison, for the evidence); none is given as the answer.
   */
  public FlushTrigger withUnverifiedModels(List<String> tried, List<String> cells) {
    if (tried.isEmpty()) return this;
    List<String> more = new ArrayList<>(evidence);
    for (String t : tried) more.add("two mechanisms: " + t);
    more.addAll(cells);
    FlushTriggerBuilder c = FlushTriggerBuilder.builder(this);
    c.verdict(
        verdict
            + "; two mechanisms at once were "
            + "tried and none reproduced every cell ("
            + String.join("; ", tried)
            + ")");
    c.evidence(List.copyOf(more));
    return c.build();
  }

  public static FlushTrigger inconclusive(
      String target, String why, List<String> evidence, List<String> next) {
    return new FlushTrigger(
        target,
        TriggerKind.INCONCLUSIVE,
        null,
        null,
        null,
        null,
        "inconclusive: "
            + why
            + (next.isEmpty() ? "" : "; measure next: " + String.join("; ", next)),
        evidence,
        next);
  }
}
