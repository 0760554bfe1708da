package flushlab.run;

import flushlab.map.BesideACompressor;
import flushlab.map.CellEvidence;
import flushlab.map.CellMatch;
import flushlab.map.EncoderInFront;
import flushlab.map.FlushTrigger;
import flushlab.map.IdleCut;
import flushlab.map.NextWriteInFront;
import flushlab.map.ReplayVerdict;
import flushlab.map.ShaperModel;
import flushlab.map.TriggerKind;
import flushlab.map.TwoStageCandidate;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.scenario.Cell;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * `flushlab map` once the host is certified: one pass of the prober as the scenario's client, the
 * compression step (the same target asked as the other kind of client), the silent stream's
 * finding, the models of two stages when no one mechanism explains the cells, and the replay of the
 * answer's model ({@link ModelReplay}) before it is given. It measures through {@link MapLab}, the
 * runner's sites on this host or a lab's agents, and keeps what the answer's replay showed.
 */
final class MapSession {
  private final MapLab lab;
  private final ModelReplay replays;
  private final ClientPasses clientPasses;
  private final PairReplays pairReplays;

  /**
   * Unless `--no-verify`: the answer's model is replayed on a built-in relay, cell by cell, before
   * it is given.
   */
  private final boolean verify;

  /**
   * The replay of the model the answer gives, cell by cell (set once that replay is attached to the
   * answer).
   */
  private List<ReplayedCell> replayedCells = List.of();

  /** The replay that verified the answer's model: what a silent stream replayed later adds to. */
  private ReplayVerdict givenVerdict;

  /**
   * The cells the one mechanism's replay found different, by label; empty when none was refused.
   */
  private Set<String> refusedCells = Set.of();

  /**
   * Models of two mechanisms each reproduced every cell: the answer is inconclusive for that, not
   * for a spread a host stall could explain.
   */
  private boolean alikeNamed;

  MapSession(MapLab lab, boolean verify) {
    this.lab = lab;
    this.replays = new ModelReplay(lab);
    this.clientPasses = new ClientPasses(lab);
    this.pairReplays = new PairReplays(lab, replays);
    this.verify = verify;
  }

  /** The answer's model replayed, cell by cell; empty when none was. */
  List<ReplayedCell> replayedCells() {
    return replayedCells;
  }

  /** What a replay says when this host's stalls kept it from comparing a cell. */
  static final String HOST_STALLED = "this host stalled";

  /** What the map measured, and its answer. */
  record Mapped(List<TargetCellResult> results, FlushTrigger answer) {}

  /**
   * The map once the host is certified: the passes, the silent stream's finding, the models of two
   * stages, the replay, within {@code deadline} (System.nanoTime).
   */
  Mapped measure(
      Target target,
      Measure measure,
      Certification cert,
      SilentStream silent,
      Consumer<String> announce,
      long deadline)
      throws Exception {
    List<TargetCellResult> results = new ArrayList<>();
    MapContext map = new MapContext(target, results, measure, cert, announce, deadline);
    ClientPasses.Passes p = clientPasses.run(target, measure, cert, results, announce, deadline);
    if (p.ended()) return new Mapped(results, p.mine());
    FlushTrigger mine = p.mine();
    List<TargetCellResult> firstPass = p.firstPass();
    FlushTrigger answer = p.answer();
    List<TargetCellResult> asItIs = p.asItIs();
    FlushTrigger asItIsAnswer = p.asItIsAnswer();
    String heldOnly = p.heldOnly();
    List<TargetCellResult> acceptingPass = p.acceptingPass();
    // a silent stream already cut joins the answer, and its model's replay; one still open is
    // watched through the replay too
    IdleCut idle = silent == null ? null : silent.endedSoFar();
    if (idle != null) {
      announce.accept("map: " + idle.describe());
      answer = answer.withIdle(idle);
    }
    givenVerdict = null;
    alikeNamed = false;
    // tried when no one mechanism explained the stream as it is, or (below) when the answer's model
    // failed its replay;
    // for a target that compressed for the other client, each candidate joins the compressor that
    // client saw
    List<CellEvidence> probed =
        asItIs.stream().map(r -> MapPass.asProbed(r, cert.emitToRecvMs())).toList();
    boolean unexplained = asItIsAnswer != null && asItIsAnswer.kind() == TriggerKind.INCONCLUSIVE;
    // the accepting pass lost a cell to this host's stalls: what the compressor does to the stream
    // was not seen, so no model joins one (a threshold then a compressor flushing one release late
    // was given, "verified" on the other client's cells alone: a fresh-clone suite, s234)
    boolean compressorUnseen = acceptingPassStalled(answer);
    boolean twoStages =
        !lab.interrupted()
            && asItIsAnswer != null
            && !probed.isEmpty()
            && !probed.contains(null)
            && !compressorUnseen
            && (verify || unexplained);
    List<TwoStageCandidate> two = twoStages ? PairReplays.candidates(target, probed) : List.of();
    // a threshold and a timer in series, simulated on the stream as it is (never beside a
    // compressor: its cells are another client's)
    List<CellEvidence> pairCells =
        twoStages && (answer.compression() == null || answer.compression().coding() == null)
            ? probed
            : List.of();
    if (twoStages && answer.compression() != null && answer.compression().coding() != null) {
      two = new ArrayList<>(BesideACompressor.joined(two, answer, asItIsAnswer == mine, heldOnly));
      TwoStageCandidate decoded =
          BesideACompressor.decodedOnDelivery(answer, asItIsAnswer, asItIsAnswer == mine, heldOnly);
      if (decoded != null) two.add(decoded);
    }
    // the accepting pass unexplained beside a plain holding stage: that stage, then a compressor
    // flushing one write late, is replayed first (any --no-verify: a two-stage answer is only given
    // replayed)
    TwoStageCandidate lateCompressor =
        lab.interrupted() || asItIsAnswer == null || compressorUnseen
            ? null
            : BesideACompressor.flushingOneLate(answer, asItIsAnswer == mine, heldOnly);
    // or the compressor in front of a plain hold or clock, each event reaching it a write late
    TwoStageCandidate lateInFront =
        lateCompressor == null ? null : NextWriteInFront.of(answer, asItIsAnswer == mine, heldOnly);
    // or a compressor on a timer of its own, before or after a plain hold, its flush pinned by a
    // cell more where the accepting cells leave it loose
    List<CellEvidence> acceptingCells =
        acceptingPass.stream()
            .map(r -> MapPass.asProbed(r, cert.emitToRecvMs()))
            .filter(c -> c != null)
            .toList();
    // a cell telling compressor models apart is measured as that client
    Cell acceptingBase = acceptingPass.isEmpty() ? null : acceptingPass.get(0).cell();
    List<TwoStageCandidate> compressorTimed = List.of();
    if (!lab.interrupted() && asItIsAnswer != null && !compressorUnseen) {
      List<CellEvidence> pinning =
          FlushPinning.measure(lab, map, answer, acceptingCells, acceptingPass);
      answer =
          BesideACompressor.outputCountPinned(
              answer, asItIsAnswer == mine, acceptingCells, pinning, heldOnly);
      compressorTimed =
          BesideACompressor.compressorOnATimer(
              answer, asItIsAnswer == mine, acceptingCells, pinning);
    }
    // a compressor the accepting pass read as an encoder (its buffers filling) or as a byte
    // threshold (a compressor sending by its output) is one of these only once that reading's
    // model failed its replay: then they come after the others
    // (`compress=gzip,flush=bytes,bytes=2977B -> byte-threshold=2834B`, read as one threshold for
    // both clients, was refused with no other candidate: a chain bench, 2026-12-05)
    TriggerKind acceptingRead =
        answer.compression() == null || answer.compression().accepting() == null
            ? null
            : answer.compression().accepting().kind();
    boolean modelFirst =
        acceptingRead == TriggerKind.ENCODER || acceptingRead == TriggerKind.BYTE_THRESHOLD;
    // (fitted beside the plain stage, before the pairs joined with the compressor, on which a chain
    // bench's `timer=249ms -> compress=gzip,flush=bytes,bytes=2289B` spent its budget: 2026-12-06)
    if (modelFirst && !compressorTimed.isEmpty()) {
      List<TwoStageCandidate> fittedFirst = new ArrayList<>(compressorTimed);
      fittedFirst.addAll(two);
      two = fittedFirst;
      compressorTimed = List.of();
    }
    boolean besideTheCompressor = lateCompressor != null || !compressorTimed.isEmpty();
    if (besideTheCompressor) {
      List<TwoStageCandidate> first = new ArrayList<>();
      if (lateCompressor != null) first.add(lateCompressor);
      if (lateInFront != null) first.add(lateInFront);
      first.addAll(compressorTimed);
      first.addAll(two);
      two = first;
    }
    // an encoder in front of one-late, each of its blocks a block late: first, where both passes
    // read just that (before a compressor sending by its output, fitted to the same cells)
    if (twoStages) two = EncoderInFront.first(answer, asItIsAnswer == mine, heldOnly, two);
    if ((unexplained || besideTheCompressor) && !(two.isEmpty() && pairCells.isEmpty())) {
      answer = twoMechanisms(map, answer, two, pairCells, acceptingBase);
      two = List.of();
      pairCells = List.of();
    }
    if (verify
        && !lab.interrupted()
        && answer.kind() != TriggerKind.INCONCLUSIVE
        && answer.replay() == null) {
      answer = replayed(map, answer);
      // one mechanism verified alone, held to the cell where a twin of two stages would show
      TwinCheck.Checked twin =
          givenVerdict == null
              ? null
              : TwinCheck.check(lab, replays, map, answer, givenVerdict, replayedCells, probed);
      if (twin != null) {
        answer = twin.answer();
        givenVerdict = twin.verdict();
        if (!twin.cells().isEmpty()) replayedCells = twin.cells();
        // the cell the one model differed on bounds the models of two stages as every other does
        if (twin.differedOn() != null && !pairCells.isEmpty()) {
          pairCells = new ArrayList<>(pairCells);
          pairCells.add(twin.differedOn());
        }
      }
      // the one mechanism's model did not reproduce the target: the next candidates are two at
      // once, never the refused one
      boolean refused = refusedByItsReplay(answer);
      // then two holding stages in series, simulated: a refused model leaves the cells as
      // unexplained as none did (`timer=52ms -> cork`, read as the cork alone and refused, had no
      // candidate: a chain bench, 2026-12-05)
      if (refused && !(two.isEmpty() && pairCells.isEmpty()) && !lab.interrupted()) {
        answer = twoMechanisms(map, answer, two, pairCells, acceptingBase);
      }
    }
    if (silent != null && idle == null) {
      idle = silent.stop(0);
      boolean replayedWithoutIt = givenVerdict != null && answer.kind() != TriggerKind.INCONCLUSIVE;
      if (idle.isCut() && replayedWithoutIt && !lab.interrupted()) {
        answer = silentStreamReplayed(target, answer, idle, announce, deadline);
      } else {
        announce.accept("map: " + idle.describe());
        answer = answer.withIdle(idle);
      }
    }
    if (!lab.interrupted() && PassStalls.mayNameFirstPassStalls(answer, unexplained, alikeNamed)) {
      String stalled = PassStalls.hostStallsDuring(firstPass);
      if (stalled != null) answer = answer.withHostStalls(stalled);
    }
    if (!lab.interrupted()
        && answer.kind() == TriggerKind.INCONCLUSIVE
        && answer.replay() != null
        && !alikeNamed
        && !answer.verdict().contains(HOST_STALLED)) {
      String stalled = PassStalls.stalledInEvery(results, refusedCells);
      if (stalled != null) answer = answer.withHostStallsWhereTheReplayDiffered(stalled);
    }
    return new Mapped(results, answer);
  }

  /**
   * Whether the pass of the client that accepts the target's coding ended because this host stalled
   * through a cell of it (its answer inconclusive for that): the compressor's part of the stream is
   * then unknown.
   */
  static boolean acceptingPassStalled(FlushTrigger answer) {
    if (answer.compression() == null || answer.compression().coding() == null) return false;
    FlushTrigger accepting = answer.compression().accepting();
    return accepting != null
        && accepting.kind() == TriggerKind.INCONCLUSIVE
        && accepting.verdict().contains(HOST_STALLED);
  }

  /**
   * `map` (unless --no-verify): the answer's model runs as a built-in relay on the target's path,
   * and every cell measured on the target is measured once on it (as the same client), then
   * compared ({@link Replay}). An answer whose model differs in a cell becomes inconclusive, saying
   * where; cells the budget leaves no room for are not replayed, and the sentence says how many
   * were.
   */
  private FlushTrigger replayed(MapContext map, FlushTrigger answer) throws Exception {
    Consumer<String> announce = map.announce();
    ShaperModel model = ShaperModel.of(answer);
    if (model.chain() == null) {
      announce.accept("replay: nothing to replay, the answer has no model (" + model.note() + ")");
      return answer;
    }
    boolean socketStage = answer.kind() == TriggerKind.NAGLE || answer.then() == TriggerKind.NAGLE;
    ModelReplay.Outcome o =
        replays.replay(
            map.target(),
            model.chain(),
            socketStage,
            answer.idle(),
            map.results(),
            map.cert(),
            announce,
            map.deadline(),
            false);
    if (o.unfinished() != null) return answer.withReplayUnfinished(o.unfinished(), o.tryNext());
    if (o.verdict() == null) return answer;
    announce.accept("replay: " + o.text());
    ReplayVerdict verdict = o.verdict();
    replayedCells = o.cells();
    StalledCellsAgain.Again again =
        verdict.verified() || lab.interrupted()
            ? null
            : StalledCellsAgain.measure(lab, map, model.chain(), socketStage, o);
    if (again != null) {
      verdict = again.verdict();
      replayedCells = again.cells();
      announce.accept("replay: " + verdict.text());
    }
    if (verdict.verified()) givenVerdict = verdict;
    else refusedCells = PassStalls.differing(verdict);
    FlushTrigger replayedAnswer = answer.withReplay(verdict);
    // which client the cells differed for, as first replayed (not said of cells measured again)
    return o.clientsApart() == null || again != null
        ? replayedAnswer
        : replayedAnswer.withClientsApart(o.clientsApart());
  }

  /**
   * An answer whose model reproduced every cell before its silent stream was cut on the target: the
   * model with its idle stage runs as a relay once more, for the silent stream alone, which must be
   * cut as long after its request; the replay's verdict gains that comparison. The budget too short
   * for it leaves the answer not verified, saying so.
   */
  private FlushTrigger silentStreamReplayed(
      Target target, FlushTrigger answer, IdleCut idle, Consumer<String> announce, long deadline)
      throws Exception {
    String chain = ShaperModel.of(answer.withIdle(idle)).chain();
    double needMs = idle.cutMs() * 1.1 + 1000;
    if (ModelReplay.secondsLeft(deadline) * 1000 < needMs) {
      // the cells' model stands, replayed; the cut is said, not modelled unreplayed
      IdleCut said =
          idle.leftOutOfTheModel(
              String.format(
                  Locale.ROOT,
                  "it came after the cells' replay had begun, and the "
                      + "budget leaves no room to replay a silent stream of %.1f s on the model (a longer --budget, or `flushlab probe idle`)",
                  idle.cutMs() / 1000));
      announce.accept("map: " + said.describe());
      return answer.withIdle(said);
    }
    announce.accept("map: " + idle.describe() + "; replaying it on the model " + chain);
    Target.Relay replica =
        new Target.Relay("model", ShaperRegistry.parseChain(chain), false, target.path());
    IdleCut onModel;
    try (MapLab.PlacedModel placed = lab.placeModel(replica, target, announce);
        SilentStream silent =
            lab.silentStream(placed.measure(), replica, lab.scenario().cells().get(0), deadline)) {
      onModel = silent.stop(idle.cutMs() * 1.1 + 200);
    }
    ReplayVerdict v =
        new ReplayVerdict(chain, givenVerdict.cells())
            .with(new CellMatch(IdleCut.LABEL, IdleCut.difference(idle, onModel)));
    announce.accept("replay: " + v.text());
    givenVerdict = v;
    return answer.withIdle(idle).withReplay(v);
  }

  /**
   * The models of two stages replayed ({@link PairReplays}); the one given, if any, is the replay
   * the answer keeps.
   */
  private FlushTrigger twoMechanisms(
      MapContext map,
      FlushTrigger answer,
      List<TwoStageCandidate> candidates,
      List<CellEvidence> pairCells,
      Cell acceptingBase)
      throws Exception {
    PairReplays.Result r = pairReplays.replay(map, answer, candidates, pairCells, acceptingBase);
    if (r.given() != null) {
      replayedCells = r.given().cells();
      givenVerdict = r.given().verdict();
    }
    alikeNamed |= r.alikeNamed();
    return r.answer();
  }

  /**
   * Whether the one mechanism's model was refused by its replay, so that models of two stages come
   * next. A replay this host's stalls cut short refused nothing: tried as if it had, a mimic of the
   * model was given (`stock HAProxy` read as the cork, its replay of the 4 KiB cell stalled in both
   * runs, then answered `timer=20ms,periodic=true -> cork`, verified: a fresh-clone suite,
   * 2026-12-07), where the answer is that this host stalled.
   */
  static boolean refusedByItsReplay(FlushTrigger answer) {
    return answer.kind() == TriggerKind.INCONCLUSIVE
        && answer.replay() != null
        && !answer.replay().contains(HOST_STALLED);
  }
}
