package flushlab.run;

import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.map.CorkAfterFit;
import flushlab.map.FlushTrigger;
import flushlab.map.HoldingPairFit;
import flushlab.map.OneLateAfterFit;
import flushlab.map.PairPinning;
import flushlab.map.SocketStageFit;
import flushlab.map.TwoStageCandidate;
import flushlab.scenario.Cell;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The map's models of two stages, replayed: the candidates the cells allow, each replayed on every
 * cell, and the answer they make (one given, several named alike or told apart by one cell more,
 * none, with how each differed).
 */
final class PairReplays {
  private final MapLab lab;
  private final ModelReplay replays;

  PairReplays(MapLab lab, ModelReplay replays) {
    this.lab = lab;
    this.replays = replays;
  }

  /**
   * What the replays made of the answer.
   *
   * @param answer the answer now
   * @param given the model it gives and its replay, or null when it gives none
   * @param alikeNamed several models reproduced every cell and are named
   */
  record Result(FlushTrigger answer, AlikeTeller.Reproduced given, boolean alikeNamed) {}

  /**
   * Models of two stages the first pass's cells allow, simplest first: a holding stage then Nagle,
   * one-late or the cork (a hold's clock twin with it).
   */
  static List<TwoStageCandidate> candidates(Target target, List<CellEvidence> cells) {
    List<TwoStageCandidate> two =
        new ArrayList<>(SocketStageFit.candidates(target.name(), cells, target.path()));
    two.addAll(OneLateAfterFit.candidates(target.name(), cells));
    List<TwoStageCandidate> cork = CorkAfterFit.candidates(target.name(), cells, target.path());
    two.addAll(cork);
    two.addAll(CorkAfterFit.clockTwins(target.name(), cells, target.path(), cork));
    return two;
  }

  /**
   * No one mechanism explained every cell (or its model's replay did not reproduce them), but one
   * did with a second stage after it: the client socket's Nagle ({@link SocketStageFit}), one-late
   * ({@link OneLateAfterFit}) or the cork ({@link CorkAfterFit}): each such model is replayed on
   * every cell, and the one that reproduces them all, alone, is the answer; then, when none of
   * these did, two holding stages in series found by simulation ({@link HoldingPairFit}). Two that
   * both do are told apart by one cell more where it can be measured ({@link AlikeTeller}), or
   * named, neither given; none leaves the answer inconclusive, saying how each differed. A model
   * the budget cut short is not given. {@code acceptingBase}: a cell of the client that accepts a
   * compressing target's coding, as which a cell telling compressor models apart is measured (null
   * when there is none).
   */
  Result replay(
      MapContext map,
      FlushTrigger answer,
      List<TwoStageCandidate> candidates,
      List<CellEvidence> pairCells,
      Cell acceptingBase)
      throws Exception {
    Target target = map.target();
    Consumer<String> announce = map.announce();
    List<String> tried = new ArrayList<>();
    List<String> cells = new ArrayList<>();
    List<TwoStageCandidate> reproduced = new ArrayList<>();
    List<AlikeTeller.Reproduced> replayedAlike = new ArrayList<>();
    // candidates this host's stalls kept from being compared on every cell: any of them may have
    // reproduced the target as well
    List<String> stalledOut = new ArrayList<>();
    // and those the budget left no room to replay
    List<String> budgetCut = new ArrayList<>();
    // two holding stages in series, found by simulation, come last, and only when no simpler pair
    // reproduced the target
    List<TwoStageCandidate> all = new ArrayList<>(candidates);
    boolean simulatedAdded = false;
    // where no pair fits the cells measured to pin one, the stall of this host through them
    String pinnedUnderStall = null;
    // candidates refused where this host stalled on the target, replayed again once the cell was
    // measured again and agreed
    List<String> againAfterStalls = new ArrayList<>();
    for (int i = 0;
        i < all.size() || i == candidates.size() && reproduced.isEmpty() && !pairCells.isEmpty();
        i++) {
      if (i == candidates.size() && !simulatedAdded) {
        simulatedAdded = true;
        Pinned pinned = pinned(map, pairCells);
        pairCells = pinned.cells();
        all.addAll(pinned.candidates());
        pinnedUnderStall = pinned.stalledWithNoPair();
        if (i == all.size()) break;
      }
      TwoStageCandidate c = all.get(i);
      String chain = answer.idle() == null ? c.chain() : answer.idle().appliedTo(c.chain());
      announce.accept("map: no one mechanism explains every cell; replaying two at once: " + chain);
      ModelReplay.Outcome o =
          replays.replay(
              target,
              chain,
              c.socketStage(),
              answer.idle(),
              map.results(),
              map.cert(),
              announce,
              map.deadline(),
              true);
      if (o.unfinished() != null) {
        tried.add(c.chain() + ": not verified: " + o.unfinished());
        if (o.unfinished().contains(MapSession.HOST_STALLED))
          stalledOut.add(c.chain() + ": " + o.unfinished());
      } else if (o.verdict() == null || o.notReplayed() > 0) {
        tried.add(c.chain() + ": not replayed on every cell (budget)");
        budgetCut.add(c.chain());
      } else if (o.verdict().verified()) {
        announce.accept("replay: " + o.text());
        reproduced.add(c);
        replayedAlike.add(new AlikeTeller.Reproduced(c, chain, o.verdict(), o.cells()));
      } else {
        announce.accept("replay: " + o.text());
        // refused only where this host stalled on the target: those cells measured again, and
        // where the model now agrees there, the candidate replayed once more on every cell (two
        // pairs were refused for a 4 KiB cell's first frame, 157.3 ms on the target through a 15
        // ms stall of this host, 130 on both models: `flushlab map --shape
        // 'timer=130ms,periodic=true -> compress=gzip,flush=input,bytes=4738B' --client browser`,
        // 2026-12-07)
        StalledCellsAgain.Again again =
            lab.interrupted() || againAfterStalls.contains(c.chain())
                ? null
                : StalledCellsAgain.measure(lab, map, chain, c.socketStage(), o);
        if (again != null && again.verdict().verified()) {
          againAfterStalls.add(c.chain());
          i--;
          continue;
        }
        tried.add((again == null ? o.verdict() : again.verdict()).refusal());
        cells.addAll((again == null ? o.verdict() : again.verdict()).cellLines(c.chain()));
      }
    }
    if (reproduced.size() == 1 && !stalledOut.isEmpty()) {
      return new Result(
          UndecidedAnswers.unsettledByStalls(answer, reproduced.get(0).chain(), stalledOut),
          null,
          false);
    }
    if (reproduced.size() == 1) {
      Result held =
          NagleCheck.check(
              lab, replays, this, map, answer, replayedAlike.get(0), pairCells, budgetCut);
      if (held != null) return held;
      return new Result(
          given(answer, replayedAlike.get(0), budgetCut), replayedAlike.get(0), false);
    }
    if (reproduced.size() > 1) {
      // two holding stages in series can be simulated on a cell not measured: the one that would
      // tell them apart, measured as the client the pair was fitted to (the scenario's own, or,
      // beside a compressor, where every model holds the compressor as a stage of its own, the
      // client that accepts its coding), when no stall or budget left another unknown; each such
      // cell rules out one model at least, or all of them
      Cell tellAs =
          tellAs(answer, chainsOf(replayedAlike), lab.scenario().cells().get(0), acceptingBase);
      boolean mayTell = tellAs != null && stalledOut.isEmpty() && budgetCut.isEmpty();
      List<AlikeTeller.Reproduced> left = replayedAlike;
      String toldNothing = null;
      List<CellPlan> measured = new ArrayList<>();
      CellPlan telling = AlikeTeller.tellingCell(simulated(left), measured, pairCells);
      for (int round = 0;
          round < AlikeTeller.MAX_TELLING_CELLS && mayTell && telling != null;
          round++) {
        AlikeTeller.Told told = AlikeTeller.tell(lab, replays, map, tellAs, telling, left);
        if (told == null) break;
        measured.add(telling);
        if (told instanceof AlikeTeller.Told.One one)
          return new Result(given(answer, one.model(), budgetCut), one.model(), false);
        if (told instanceof AlikeTeller.Told.Neither neither) {
          tried.addAll(neither.tried());
          cells.addAll(neither.cells());
          // the cell parts them from the target too: the pairs fitted again with it, once (a
          // threshold behind a clock, taken from the middle of what the first cells allowed, was
          // over what 4 KiB frames every 100 ms showed it to be: a map, 2026-12-05)
          Result refitted =
              pairCells.isEmpty() || neither.seen() == null
                  ? null
                  : refitted(map, answer, pairCells, neither.seen(), replayedAlike);
          if (refitted != null) return refitted;
          return new Result(answer.withUnverifiedModels(tried, cells), null, false);
        }
        AlikeTeller.Told.Both both = (AlikeTeller.Told.Both) told;
        left = both.still();
        toldNothing = both.label();
        telling = AlikeTeller.tellingCell(simulated(left), measured, pairCells);
      }
      return new Result(
          UndecidedAnswers.namedAlike(
              answer, chainsOf(left), telling, toldNothing, stalledOut, budgetCut),
          null,
          true);
    }
    // no pair fits the cells that pin one, and this host stalled through them: the spread may be
    // its own (`byte-threshold=3008B -> byte-threshold=4782B`, its 605 B cell's first frame 108.7
    // ms late and a release of 11 frames among tens, was left refused for one threshold, unnamed:
    // a fresh-clone suite, s257)
    return new Result(noPairFound(answer, tried, cells, pinnedUnderStall), null, false);
  }

  /**
   * The answer when no pair reproduced the target: the pairs {@code tried} and where they differed
   * ({@code cells}); none tried because none fitted the cells that pin one, through which this host
   * stalled ({@code pinnedUnderStall}, or null): that stall named, as the cause it may be.
   */
  static FlushTrigger noPairFound(
      FlushTrigger answer, List<String> tried, List<String> cells, String pinnedUnderStall) {
    return tried.isEmpty() && pinnedUnderStall != null
        ? answer.withHostStalls(pinnedUnderStall)
        : answer.withUnverifiedModels(tried, cells);
  }

  /**
   * {@code pairCells} and the cells measured to pin a threshold the pairs fitted on them leave
   * loose, with the pairs fitted on them all ({@link PairPinning}), as the scenario's client, while
   * the budget has room; each one is in the map's results, so every replay after it compares it
   * too.
   */
  private Pinned pinned(MapContext map, List<CellEvidence> pairCells) throws Exception {
    Target target = map.target();
    List<CellEvidence> cells = new ArrayList<>(pairCells);
    List<TargetCellResult> measured = new ArrayList<>();
    Cell base = lab.scenario().cells().get(0);
    List<TwoStageCandidate> pairs = HoldingPairFit.candidates(target.name(), cells, target.path());
    for (int round = 0; round < PairPinning.MAX_PINNING_CELLS && !lab.interrupted(); round++) {
      // a longer cell only where the budget leaves room for it and two replays of it
      long longest =
          Math.min(
              PairPinning.LONGER_STREAM_MS,
              (long) ((ModelReplay.secondsLeft(map.deadline()) / 3 - 1) * 1000));
      CellPlan plan = PairPinning.next(pairs, cells, longest);
      if (plan == null
          || ModelReplay.secondsLeft(map.deadline()) < 3 * (plan.streamMs() / 1000 + 1)) break;
      map.announce()
          .accept(
              "map: the cells leave a threshold of two stages loose; measuring a cell that pins"
                  + " it: "
                  + plan);
      MapContext.OneMore more = map.oneCellMore(lab, base, plan, "pin the threshold");
      if (more == null) break;
      measured.add(more.onTarget());
      cells.add(more.seen());
      pairs = HoldingPairFit.candidates(target.name(), cells, target.path());
    }
    PairsToldFirst.Told told =
        PairsToldFirst.tell(
            target.name(),
            target.path(),
            cells,
            pairs,
            plan ->
                !lab.interrupted()
                    && ModelReplay.secondsLeft(map.deadline()) >= 3 * (plan.streamMs() / 1000 + 1),
            plan -> {
              MapContext.OneMore more = map.oneCellMore(lab, base, plan, "tell the pairs apart");
              if (more == null) return null;
              measured.add(more.onTarget());
              return more.seen();
            },
            map.announce());
    return new Pinned(
        told.cells(),
        TwoStageCandidate.simplestFirst(told.pairs(), told.cells()),
        told.pairs().isEmpty() ? PassStalls.hostStallsDuring(measured) : null);
  }

  /**
   * The pair cells with those measured to pin a threshold, and the pairs fitted on them all.
   *
   * @param stalledWithNoPair where no pair fits them all: this host's longest stall through a
   *     measured one ({@link PassStalls#hostStallsDuring}), or null
   */
  private record Pinned(
      List<CellEvidence> cells, List<TwoStageCandidate> candidates, String stalledWithNoPair) {}

  /**
   * The client a cell telling {@code alike} apart is measured as: the scenario's own ({@code
   * scenarioCell}) for a target that did not compress; beside a compressor, {@code acceptingBase}
   * (the client that accepts its coding) when every chain holds the compressor as a stage of its
   * own, which the simulation then runs too; else none (null).
   */
  static Cell tellAs(
      FlushTrigger answer, List<String> alike, Cell scenarioCell, Cell acceptingBase) {
    boolean plain = answer.compression() == null || answer.compression().coding() == null;
    if (plain) return scenarioCell;
    return alike.stream().allMatch(c -> c.contains("compress=")) ? acceptingBase : null;
  }

  /**
   * The chains of {@code models} as the pair simulation reads them: their two stages, without the
   * idle stage an answer applies to them (the simulation knows no idle stage).
   */
  private static List<String> simulated(List<AlikeTeller.Reproduced> models) {
    return models.stream().map(m -> m.candidate().chain()).toList();
  }

  /** The chains of {@code models}, as replayed (an idle stage the answer found applied). */
  private static List<String> chainsOf(List<AlikeTeller.Reproduced> models) {
    return models.stream().map(AlikeTeller.Reproduced::chain).toList();
  }

  /**
   * The one model of two stages that reproduced every cell, given with its replay: a candidate
   * beside a compressor carries its finding already; the others say what compression showed.
   */
  static FlushTrigger given(
      FlushTrigger answer, AlikeTeller.Reproduced model, List<String> budgetCut) {
    FlushTrigger both = model.candidate().answer().withIdle(answer.idle());
    if (both.compression() == null && answer.compression() != null)
      both = both.withCompression(answer.compression());
    both = both.withReplay(model.verdict());
    return budgetCut.isEmpty() ? both : both.withUntriedForBudget(budgetCut);
  }

  /**
   * The pairs fitted again on {@code pairCells} and the cell that told {@code refused} from the
   * target, and those not replayed yet replayed on every cell (without a second refit): the result
   * when one or more reproduce them all, else null.
   */
  private Result refitted(
      MapContext map,
      FlushTrigger answer,
      List<CellEvidence> pairCells,
      CellEvidence telling,
      List<AlikeTeller.Reproduced> refused)
      throws Exception {
    Target target = map.target();
    List<CellEvidence> more = new ArrayList<>(pairCells);
    more.add(telling);
    List<String> before = refused.stream().map(r -> r.candidate().chain()).toList();
    List<TwoStageCandidate> again =
        HoldingPairFit.candidates(target.name(), more, target.path()).stream()
            .filter(c -> !before.contains(c.chain()))
            .toList();
    if (again.isEmpty() || lab.interrupted()) return null;
    map.announce()
        .accept(
            "map: neither reproduces "
                + telling.label()
                + "; the pairs fitted again with it: "
                + String.join(", ", again.stream().map(TwoStageCandidate::chain).toList()));
    Result r = replay(map, answer, again, List.of(), null);
    return r.given() != null || r.alikeNamed() ? r : null;
  }
}
