package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.ClientProfile;
import flushlab.client.RequestPlan;
import flushlab.coding.ContentCoding;
import flushlab.core.HostPort;
import flushlab.core.Units;
import flushlab.map.BesideACompressor;
import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.map.CompressionFinding;
import flushlab.map.CorkAfterFit;
import flushlab.map.FlushTrigger;
import flushlab.map.HoldingPairFit;
import flushlab.map.IdleCut;
import flushlab.map.OneLateAfterFit;
import flushlab.map.Replay;
import flushlab.map.ShaperModel;
import flushlab.map.SocketStageFit;
import flushlab.map.TriggerKind;
import flushlab.map.TwoStageCandidate;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.scenario.Cell;
import flushlab.scenario.Setting;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
  private final MapPass passes;

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
  private Replay.Verdict givenVerdict;

  /**
   * Models of two mechanisms each reproduced every cell: the answer is inconclusive for that, not
   * for a spread a host stall could explain.
   */
  private boolean alikeNamed;

  MapSession(MapLab lab, boolean verify) {
    this.lab = lab;
    this.replays = new ModelReplay(lab);
    this.passes = new MapPass(lab);
    this.verify = verify;
  }

  /** The answer's model replayed, cell by cell; empty when none was. */
  List<ReplayedCell> replayedCells() {
    return replayedCells;
  }

  /** What a replay says when this host's stalls kept it from comparing a cell. */
  private static final String HOST_STALLED = "this host stalled";

  private static double secondsLeft(long deadlineNanos) {
    return ModelReplay.secondsLeft(deadlineNanos);
  }

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
    Cell base = lab.scenario().cells().get(0);
    boolean accepts =
        !CellRequest.plan(
                base,
                HostPort.parse("-", "127.0.0.1:1", false),
                null,
                lab.scenario().requestHeaders().toSend())
            .acceptedCodings()
            .isEmpty();
    FlushTrigger mine =
        passes.run(target, base, false, measure, cert, results, announce, secondsLeft(deadline));
    if (lab.interrupted()
        || mine.kind() == TriggerKind.INCONCLUSIVE
            && mine.verdict().contains("the target failed")) {
      return new Mapped(results, mine);
    }
    List<TargetCellResult> firstPass = List.copyOf(results);
    // the compression step: the same target asked as the other kind of client
    String coding = codingSeen(results);
    FlushTrigger answer = mine;
    // the pass of the client the target sent the stream as it is (to which a model of two stages is
    // fitted), and its answer
    List<TargetCellResult> asItIs = coding == null ? firstPass : List.of();
    FlushTrigger asItIsAnswer = coding == null ? mine : null;
    String heldOnly = null;
    // the pass of the client that accepts compression, where one was measured
    List<TargetCellResult> acceptingPass = List.of();
    if (accepts) {
      String client = clientText(base, false);
      if (coding == null) {
        answer = mine.withCompression(CompressionFinding.of(null, client, mine, null, null, null));
      } else {
        announce.accept(
            "map: "
                + target.name()
                + " answered "
                + client
                + " in "
                + coding
                + "; now as a client that does not "
                + "accept compression ("
                + ClientProfile.BARE.text()
                + ")");
        int before = results.size();
        FlushTrigger plain =
            passes.run(
                target,
                base.withProfile(ClientProfile.BARE),
                true,
                measure,
                cert,
                results,
                announce,
                secondsLeft(deadline));
        if (results.size() == before) plain = null;
        heldOnly =
            heldOnlyCompressed(results.subList(0, before), results.subList(before, results.size()));
        answer =
            mine.withCompression(
                CompressionFinding.of(
                    coding, client, mine, ClientProfile.BARE.text(), plain, heldOnly));
        asItIs = List.copyOf(results.subList(before, results.size()));
        asItIsAnswer = plain;
        acceptingPass = firstPass;
      }
    } else {
      Cell asBrowser = base.withProfile(ClientProfile.BROWSER);
      String client = clientText(asBrowser, false);
      // one short cell first: a target that does not compress for this client costs the map half a
      // second, not a second pass
      Cell probe =
          (base.stream().endpoint().isOpenAi()
                  ? asBrowser
                  : asBrowser.with(Setting.FRAME_SIZE, COMPRESSION_PROBE.frameSizeBytes() + "B"))
              .with(Setting.INTERVAL, Units.formatDuration(COMPRESSION_PROBE.intervalNanos()))
              .with(Setting.FRAMES, Integer.toString(COMPRESSION_PROBE.frames()))
              .withIndex(results.size());
      RunRecord rec =
          lab.interrupted() || secondsLeft(deadline) < 2
              ? null
              : measure.run(target, probe, probe.index(), 0);
      if (rec != null) results.add(TargetCellResult.of(target.name(), probe, List.of(rec)));
      // the coding from every run, one the pacing guard excluded too: the response head said it,
      // whatever the pacing
      BatchResult answered = rec == null ? null : results.get(results.size() - 1).everyStream();
      if (answered != null && answered.streamsOk() == 0) {
        // no answer, no finding: "without compression" would be a fact read from nothing
        announce.accept(
            "map: asked as "
                + client
                + ": no stream was answered ("
                + answered.firstError()
                + "); compression not checked");
      } else if (answered != null) {
        ContentCoding seen = answered.dominantCoding();
        announce.accept(
            "map: asked as "
                + client
                + ": "
                + (seen == null
                    ? "answered without compression"
                    : "answered in " + seen.text() + "; mapping it as that client"));
        if (seen == null) {
          answer =
              mine.withCompression(
                  CompressionFinding.of(null, client, null, clientText(base, false), mine, null));
        } else {
          int before = results.size();
          FlushTrigger accepting =
              passes.run(
                  target,
                  asBrowser,
                  false,
                  measure,
                  cert,
                  results,
                  announce,
                  secondsLeft(deadline));
          if (results.size() == before) accepting = null;
          acceptingPass = List.copyOf(results.subList(before, results.size()));
          heldOnly =
              heldOnlyCompressed(
                  results.subList(before - 1, results.size()), results.subList(0, before - 1));
          answer =
              mine.withCompression(
                  CompressionFinding.of(
                      seen.text(), client, accepting, clientText(base, false), mine, heldOnly));
        }
      }
    }
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
    boolean twoStages =
        !lab.interrupted()
            && asItIsAnswer != null
            && !probed.isEmpty()
            && !probed.contains(null)
            && (verify || unexplained);
    List<TwoStageCandidate> two = twoStages ? twoStageCandidates(target, probed) : List.of();
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
        lab.interrupted() || asItIsAnswer == null
            ? null
            : BesideACompressor.flushingOneLate(answer, asItIsAnswer == mine, heldOnly);
    // or a compressor on a timer of its own, before or after a plain hold
    List<TwoStageCandidate> compressorTimed =
        lab.interrupted() || asItIsAnswer == null
            ? List.of()
            : BesideACompressor.compressorOnATimer(
                answer,
                asItIsAnswer == mine,
                acceptingPass.stream()
                    .map(r -> MapPass.asProbed(r, cert.emitToRecvMs()))
                    .filter(c -> c != null)
                    .toList());
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
    if (modelFirst && !compressorTimed.isEmpty()) {
      two = new ArrayList<>(two);
      two.addAll(compressorTimed);
      compressorTimed = List.of();
    }
    boolean besideTheCompressor = lateCompressor != null || !compressorTimed.isEmpty();
    if (besideTheCompressor) {
      List<TwoStageCandidate> first = new ArrayList<>();
      if (lateCompressor != null) first.add(lateCompressor);
      first.addAll(compressorTimed);
      first.addAll(two);
      two = first;
    }
    if ((unexplained || besideTheCompressor) && !(two.isEmpty() && pairCells.isEmpty())) {
      answer =
          twoMechanisms(target, answer, two, pairCells, results, measure, cert, announce, deadline);
      two = List.of();
      pairCells = List.of();
    }
    if (verify
        && !lab.interrupted()
        && answer.kind() != TriggerKind.INCONCLUSIVE
        && answer.replay() == null) {
      answer = replayed(target, answer, results, cert, announce, deadline);
      // the one mechanism's model did not reproduce the target: the next candidates are two at
      // once, never the refused one
      boolean refused = answer.kind() == TriggerKind.INCONCLUSIVE && answer.replay() != null;
      // then two holding stages in series, simulated: a refused model leaves the cells as
      // unexplained as none did (`timer=52ms -> cork`, read as the cork alone and refused, had no
      // candidate: a chain bench, 2026-12-05)
      if (refused && !(two.isEmpty() && pairCells.isEmpty()) && !lab.interrupted()) {
        answer =
            twoMechanisms(
                target, answer, two, pairCells, results, measure, cert, announce, deadline);
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
    if (!lab.interrupted()
        && answer.kind() == TriggerKind.INCONCLUSIVE
        && answer.replay() == null
        && !alikeNamed
        && !answer.verdict().contains("this host stalled")) {
      String stalled = hostStallsDuring(firstPass);
      if (stalled != null) answer = answer.withHostStalls(stalled);
    }
    return new Mapped(results, answer);
  }

  /**
   * A host stall this long in a kept run moves a held cell's waits by as much, past what a fit
   * allows of one mechanism.
   */
  static final double NOISY_STALL_MS = 10;

  /**
   * The longest host stall during a kept run of the pass, where one reached {@link
   * #NOISY_STALL_MS}: the cell and the figures; null otherwise. A pass that no one mechanism
   * explained under such a stall may have been spread by the host, not the target: under a CPU hog
   * a hold of 102 ms then one-late, whose cells fit it 6 of 6 on a quiet host, was answered
   * inconclusive from three cells, one with waits spread 206-217 ms (a fresh-clone suite with a
   * hog, 2026-12-04).
   */
  static String hostStallsDuring(List<TargetCellResult> pass) {
    String worst = null;
    double longest = 0;
    for (TargetCellResult r : pass) {
      for (RunRecord run : r.runs()) {
        if (run.excluded() || run.stalls() == null) continue;
        double ms = run.stalls().host().maxMs();
        if (ms >= NOISY_STALL_MS && ms > longest) {
          longest = ms;
          worst = r.cell().label() + ": " + run.stalls().host().describe();
        }
      }
    }
    return worst;
  }

  /**
   * `map` (unless --no-verify): the answer's model runs as a built-in relay on the target's path,
   * and every cell measured on the target is measured once on it (as the same client), then
   * compared ({@link Replay}). An answer whose model differs in a cell becomes inconclusive, saying
   * where; cells the budget leaves no room for are not replayed, and the sentence says how many
   * were.
   */
  private FlushTrigger replayed(
      Target target,
      FlushTrigger answer,
      List<TargetCellResult> results,
      Certification cert,
      Consumer<String> announce,
      long deadline)
      throws Exception {
    ShaperModel model = ShaperModel.of(answer);
    if (model.chain() == null) {
      announce.accept("replay: nothing to replay, the answer has no model (" + model.note() + ")");
      return answer;
    }
    boolean socketStage = answer.kind() == TriggerKind.NAGLE || answer.then() == TriggerKind.NAGLE;
    ModelReplay.Outcome o =
        replays.replay(
            target, model.chain(), socketStage, answer.idle(), results, cert, announce, deadline);
    if (o.unfinished() != null) return answer.withReplayUnfinished(o.unfinished(), o.tryNext());
    if (o.verdict() == null) return answer;
    announce.accept("replay: " + o.text());
    replayedCells = o.cells();
    if (o.verdict().verified()) givenVerdict = o.verdict();
    FlushTrigger replayedAnswer = answer.withReplay(o.verdict());
    return o.clientsApart() == null
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
    if (secondsLeft(deadline) * 1000 < needMs) {
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
    Replay.Verdict v =
        new Replay.Verdict(chain, givenVerdict.cells())
            .with(new Replay.CellMatch(IdleCut.LABEL, IdleCut.difference(idle, onModel)));
    announce.accept("replay: " + v.text());
    givenVerdict = v;
    return answer.withIdle(idle).withReplay(v);
  }

  /**
   * Models of two stages the first pass's cells allow, simplest first: a holding stage then Nagle,
   * one-late or the cork.
   */
  private static List<TwoStageCandidate> twoStageCandidates(
      Target target, List<CellEvidence> cells) {
    List<TwoStageCandidate> two =
        new ArrayList<>(SocketStageFit.candidates(target.name(), cells, target.path()));
    two.addAll(OneLateAfterFit.candidates(target.name(), cells));
    two.addAll(CorkAfterFit.candidates(target.name(), cells, target.path()));
    return two;
  }

  /**
   * No one mechanism explained every cell (or its model's replay did not reproduce them), but one
   * did with a second stage after it: the client socket's Nagle ({@link SocketStageFit}), one-late
   * ({@link OneLateAfterFit}) or the cork ({@link CorkAfterFit}): each such model is replayed on
   * every cell, and the one that reproduces them all, alone, is the answer. Two that both do are
   * named, neither given; none leaves the answer inconclusive, saying how each differed. A model
   * the budget cut short is not given.
   */
  private FlushTrigger twoMechanisms(
      Target target,
      FlushTrigger answer,
      List<TwoStageCandidate> candidates,
      List<CellEvidence> pairCells,
      List<TargetCellResult> results,
      Measure measure,
      Certification cert,
      Consumer<String> announce,
      long deadline)
      throws Exception {
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
    for (int i = 0;
        i < all.size() || i == candidates.size() && reproduced.isEmpty() && !pairCells.isEmpty();
        i++) {
      if (i == candidates.size()) {
        all.addAll(HoldingPairFit.candidates(target.name(), pairCells, target.path()));
        if (i == all.size()) break;
      }
      TwoStageCandidate c = all.get(i);
      String chain = answer.idle() == null ? c.chain() : answer.idle().appliedTo(c.chain());
      announce.accept("map: no one mechanism explains every cell; replaying two at once: " + chain);
      ModelReplay.Outcome o =
          replays.replay(
              target, chain, c.socketStage(), answer.idle(), results, cert, announce, deadline);
      if (o.unfinished() != null) {
        tried.add(c.chain() + ": not verified: " + o.unfinished());
        if (o.unfinished().contains(HOST_STALLED))
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
        tried.add(o.verdict().text().replaceFirst("^not verified: the model ", ""));
        for (Replay.CellMatch m : o.verdict().cells()) {
          cells.add(
              "replay of "
                  + m.label()
                  + " on "
                  + c.chain()
                  + ": "
                  + (m.difference() == null ? "agrees" : m.difference()));
        }
      }
    }
    if (reproduced.size() == 1 && !stalledOut.isEmpty()) {
      return UndecidedAnswers.unsettledByStalls(answer, reproduced.get(0).chain(), stalledOut);
    }
    if (reproduced.size() == 1) return given(answer, replayedAlike.get(0), budgetCut);
    if (reproduced.size() > 1) {
      List<String> chains =
          reproduced.stream()
              .map(c -> answer.idle() == null ? c.chain() : answer.idle().appliedTo(c.chain()))
              .toList();
      // two holding stages in series can be simulated on a cell not measured: the one that would
      // tell them apart, measured when the pair was fitted to this client's own cells (beside a
      // compressor the cells are another client's) and no stall or budget left a third unknown
      CellPlan telling =
          reproduced.size() == 2
              ? UndecidedAnswers.tellingCell(reproduced.get(0).chain(), reproduced.get(1).chain())
              : null;
      boolean plain = answer.compression() == null || answer.compression().coding() == null;
      AlikeTeller.Told told =
          telling == null || !plain || !stalledOut.isEmpty() || !budgetCut.isEmpty()
              ? null
              : AlikeTeller.tell(
                  lab,
                  measure,
                  replays,
                  target,
                  lab.scenario().cells().get(0),
                  telling,
                  replayedAlike,
                  results,
                  cert,
                  announce,
                  deadline);
      if (told instanceof AlikeTeller.Told.One one) return given(answer, one.model(), budgetCut);
      if (told instanceof AlikeTeller.Told.Neither neither) {
        tried.addAll(neither.tried());
        cells.addAll(neither.cells());
        return answer.withUnverifiedModels(tried, cells);
      }
      alikeNamed = true;
      return told instanceof AlikeTeller.Told.Both both
          ? UndecidedAnswers.namedAlike(answer, chains, null, both.label(), stalledOut, budgetCut)
          : UndecidedAnswers.namedAlike(answer, chains, telling, stalledOut, budgetCut);
    }
    return answer.withUnverifiedModels(tried, cells);
  }

  /**
   * The one model of two stages that reproduced every cell, given with its replay: a candidate
   * beside a compressor carries its finding already; the others say what compression showed.
   */
  private FlushTrigger given(
      FlushTrigger answer, AlikeTeller.Reproduced model, List<String> budgetCut) {
    FlushTrigger both = model.candidate().answer().withIdle(answer.idle());
    if (both.compression() == null && answer.compression() != null)
      both = both.withCompression(answer.compression());
    replayedCells = model.cells();
    givenVerdict = model.verdict();
    both = both.withReplay(model.verdict());
    return budgetCut.isEmpty() ? both : both.withUntriedForBudget(budgetCut);
  }

  /**
   * A stream both kinds of client read (same frames, size, interval) that came compressed and held
   * (whole at its end, or at least twice the frames per read) to one and streamed to the other:
   * described, or null when there is none.
   */
  private static String heldOnlyCompressed(
      List<TargetCellResult> accepting, List<TargetCellResult> others) {
    for (TargetCellResult a : accepting) {
      BatchResult ab = a.included();
      if (ab.dominantCoding() == null || ab.frames() == 0) continue;
      for (TargetCellResult o : others) {
        BatchResult ob = o.included();
        if (!o.cell().stream().equals(a.cell().stream())
            || ob.frames() == 0
            || ob.dominantCoding() != null) continue;
        if (ob.framesPerRead() <= 1.25 && ab.framesPerRead() >= 2 * ob.framesPerRead()) {
          return String.format(
              "the same stream, %d frames of %d B every %s, read %.2f frames per read in %s and %.2f without it",
              a.cell().frames(),
              a.cell().stream().frameBytes(),
              Units.formatDuration(a.cell().stream().intervalNanos()),
              ab.framesPerRead(),
              ab.dominantCoding().text(),
              ob.framesPerRead());
        }
      }
    }
    return null;
  }

  /**
   * The one cell that asks whether a target compresses for a client that accepts it: 200 frames of
   * 60 B every 2 ms.
   */
  private static final CellPlan COMPRESSION_PROBE = new CellPlan(60, 2_000_000L, 200);

  /** The coding most cells' bodies arrived in, or null when none was compressed. */
  private static String codingSeen(List<TargetCellResult> results) {
    Map<String, Integer> n = new LinkedHashMap<>();
    for (TargetCellResult r : results) {
      ContentCoding c = r.everyStream().dominantCoding();
      if (c != null) n.merge(c.text(), 1, Integer::sum);
    }
    return n.entrySet().stream()
        .max(Map.Entry.comparingByValue())
        .map(Map.Entry::getKey)
        .orElse(null);
  }

  private String clientText(Cell cell, boolean identity) {
    RequestPlan p =
        CellRequest.plan(
            cell, HostPort.parse("-", "127.0.0.1:1", false), null, lab.headersFor(identity));
    String ae = String.join(", ", p.acceptedCodings().stream().map(ContentCoding::text).toList());
    return cell.profile().text() + (ae.isEmpty() ? ", no Accept-Encoding" : ", accepting " + ae);
  }
}
