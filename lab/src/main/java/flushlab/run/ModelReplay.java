package flushlab.run;

import flushlab.client.Staircase;
import flushlab.map.CellEvidence;
import flushlab.map.CellMatch;
import flushlab.map.ClientsApart;
import flushlab.map.IdleCut;
import flushlab.map.Replay;
import flushlab.map.ReplayVerdict;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.scenario.Cell;
import flushlab.scenario.Setting;
import flushlab.stream.Transfer;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * A map's model replayed: the chain runs as a built-in relay where the target ran (this host, or
 * the agent that runs it), every cell measured on the target is measured once on it as the same
 * client, and the two are compared ({@link Replay}). A replay the budget, this host or the model
 * cut short says why, and compares nothing it did not get.
 */
final class ModelReplay {
  private final MapLab lab;

  ModelReplay(MapLab lab) {
    this.lab = lab;
  }

  static double secondsLeft(long deadlineNanos) {
    return Math.max(0, (deadlineNanos - System.nanoTime()) / 1e9);
  }

  /**
   * The cell as the model's relay should receive it: a target whose upstream request got frames
   * without chunk framing (an HTTP/1.0 request, as nginx sends by default, gets a close-delimited
   * body) counted its buffer in those bytes, so the relay, which asks in HTTP/1.1, is sent the body
   * close-delimited too; a 4080 B buffer then holds 68 frames of 60 B on both, not 68 on the target
   * and 62 of 66 B on the model.
   */
  private static Cell asTheTargetsUpstreamReadIt(Cell cell, CellEvidence onTarget) {
    boolean unframed =
        onTarget.coding() == null
            && onTarget.frameBytes() > 0
            && onTarget.frameBytes() == onTarget.bodyBytes();
    return unframed && cell.stream().transfer() == Transfer.CHUNKED
        ? cell.with(Setting.TRANSFER, Transfer.CLOSE.text())
        : cell;
  }

  /**
   * A model's replay: its verdict, or why it has none ({@code unfinished}, with what to try), and
   * how many cells the budget left out; with a verdict, each compared cell's stream on both sides.
   */
  record Outcome(
      ReplayVerdict verdict,
      String unfinished,
      String tryNext,
      int notReplayed,
      List<ReplayedCell> cells,
      List<CellEvidence> onModel,
      ClientsApart clientsApart,
      int leftOnceRefused,
      List<TargetCellResult> onTarget) {
    Outcome(ReplayVerdict verdict, String unfinished, String tryNext, int notReplayed) {
      this(verdict, unfinished, tryNext, notReplayed, List.of(), List.of(), null, 0, List.of());
    }

    String text() {
      return verdict.text()
          + (notReplayed > 0 ? " (" + notReplayed + " not replayed: budget)" : "")
          + (leftOnceRefused > 0
              ? " (" + leftOnceRefused + " more not replayed: one cell that differs refuses it)"
              : "");
    }
  }

  /**
   * The model {@code chain} runs as a built-in relay on the target's path, and every cell measured
   * on the target is measured once on it (as the same client), then compared ({@link Replay}, its
   * socket-stage rule when {@code socketStage}); cells the budget leaves no room for are not
   * replayed, and a cell with no frame kept on the target (every run excluded) is no data to
   * compare with.
   */
  Outcome replay(
      Target target,
      String chain,
      boolean socketStage,
      IdleCut idle,
      List<TargetCellResult> results,
      Certification cert,
      Consumer<String> announce,
      long deadline,
      boolean refuseAtFirstDifference)
      throws Exception {
    Replay.Tolerance tolerance = Replay.Tolerance.fromDirectPath(cert.spreadMs());
    // a candidate among others is refused by one cell that differs: the rest of its replay would
    // spend the budget the next candidates need (`timer=249ms -> compress=gzip,flush=bytes,
    // bytes=2289B` was inconclusive with three candidates never replayed, after two that differed
    // at their first cell had been replayed on all ten: a chain bench, 2026-12-06)
    int leftOnceRefused = 0;
    boolean refused = false;
    Target.Relay replica =
        new Target.Relay("model", ShaperRegistry.parseChain(chain), false, target.path());
    List<ComparedCell> compared = new ArrayList<>();
    int noData = 0;
    IdleCut idleOnModel = null;
    // the model's relay runs where the target did: on this host, or on the agent that runs the
    // target
    try (MapLab.PlacedModel placed = lab.placeModel(replica, target, announce)) {
      Measure onModel = placed.measure();
      // the target cut its silent stream: so must the model, as long after its request
      try (SilentStream silent =
          idle != null && idle.isCut()
              ? lab.silentStream(onModel, replica, results.get(0).cell(), deadline)
              : null) {
        for (TargetCellResult r : replayOrder(results, refuseAtFirstDifference)) {
          if (lab.interrupted()
              || secondsLeft(deadline) < r.cell().stream().streamNanos() / 1e9 + 1) {
            announce.accept(
                "replay: the budget leaves no room for "
                    + (results.size() - compared.size() - noData)
                    + " more cell(s)");
            break;
          }
          if (r.included().frames() == 0) {
            announce.accept(
                "replay: "
                    + r.cell().label()
                    + " kept no frame on the target (every run excluded): no data, not compared");
            noData++;
            continue;
          }
          lab.progress("map: replaying " + r.cell().label() + " on the model " + chain);
          CellEvidence onTarget = r.evidence(cert.emitToRecvMs());
          Cell cell = asTheTargetsUpstreamReadIt(r.cell(), onTarget);
          List<RunRecord> runs = new ArrayList<>();
          lab.identityPass(r.requestHeaders() != null);
          boolean done;
          try {
            done =
                onModel.runOnceMoreIfExcluded(
                    replica,
                    cell,
                    cell.index(),
                    0,
                    "replay of " + r.cell().label(),
                    runs,
                    announce);
          } finally {
            lab.identityPass(false);
          }
          String label = r.cell().label();
          if (!done && !lab.interrupted() && secondsLeft(deadline) >= 1) {
            // no run came back with the budget left and no interrupt: never counted as the budget's
            String unfinished = "the replay of " + label + " ended without a result";
            announce.accept("replay: " + unfinished);
            return new Outcome(null, unfinished, "map again", 0);
          }
          if (!done) break;
          if (runs.stream().allMatch(RunRecord::excluded)) {
            String why = runs.get(runs.size() - 1).exclusionReason();
            String unfinished =
                runs.stream().allMatch(RunRecord::spoiledByHostStall)
                    ? "this host stalled in both runs of the replay of "
                        + label
                        + " ("
                        + why
                        + "); nothing is compared from it"
                    : "both runs of the replay of "
                        + label
                        + " were excluded ("
                        + why
                        + "); nothing is compared from it";
            announce.accept("replay: " + unfinished);
            return new Outcome(null, unfinished, "map again on a quieter host", 0);
          }
          TargetCellResult onIt = TargetCellResult.of(replica.name(), cell, runs);
          Staircase onItStairs = Staircase.of(onIt.included(), ReplayedCell.MAX_FRAMES);
          if (onIt.included().frames() == 0) {
            String unfinished =
                "the replay of "
                    + label
                    + " read no frame from the model ("
                    + onIt.included().firstError()
                    + ")";
            announce.accept("replay: " + unfinished);
            return new Outcome(
                null,
                unfinished,
                "map again; a built-in relay that answers no stream is worth reporting",
                0);
          }
          CellEvidence replayedCell = onIt.evidence(cert.emitToRecvMs());
          StalledOnTheModel.Again again =
              StalledOnTheModel.measure(
                  onModel,
                  replica,
                  cell,
                  onIt,
                  onTarget,
                  replayedCell,
                  cert.emitToRecvMs(),
                  announce,
                  deadline,
                  c ->
                      Replay.compare(chain, List.of(onTarget), List.of(c), socketStage, tolerance)
                          .cells()
                          .get(0)
                          .difference());
          if (again != null) {
            replayedCell = again.cell();
            onItStairs = again.stairs();
          } else if (socketStage
              && Replay.nagleEngagedOnOneOnly(onTarget, replayedCell)
              && secondsLeft(deadline) >= r.cell().stream().streamNanos() / 1e9 + 1) {
            // the client's kernel decides per connection whether Nagle engages: a second
            // connection, once
            announce.accept(
                "replay: "
                    + label
                    + ": Nagle "
                    + (replayedCell.held()
                        ? "held on the model, not on the target"
                        : "held on the target, not on the model")
                    + " (whether it engages is the client kernel's choice, per connection); measured on the model once more");
            List<RunRecord> more = new ArrayList<>();
            if (onModel.runOnceMoreIfExcluded(
                    replica, cell, cell.index(), 1, "replay of " + label, more, announce)
                && !more.stream().allMatch(RunRecord::excluded)) {
              TargetCellResult second = TargetCellResult.of(replica.name(), cell, more);
              if (second.included().frames() > 0) {
                replayedCell = second.evidence(cert.emitToRecvMs());
                onItStairs = Staircase.of(second.included(), ReplayedCell.MAX_FRAMES);
              }
            }
          }
          compared.add(
              new ComparedCell(
                  r,
                  onTarget,
                  replayedCell,
                  Staircase.of(r.included(), ReplayedCell.MAX_FRAMES),
                  onItStairs,
                  new ClientsApart.AskedAs(r.cell().profile(), r.included().h2() != null)));
          if (refuseAtFirstDifference
              && Replay.compare(
                          chain, List.of(onTarget), List.of(replayedCell), socketStage, tolerance)
                      .cells()
                      .get(0)
                      .difference()
                  != null) {
            leftOnceRefused = results.size() - compared.size() - noData;
            refused = true;
            break;
          }
        }
        if (silent != null && refused) {
          silent.stop(0);
        } else if (silent != null) {
          double allowedMs = Math.min(idle.cutMs() * 1.1 + 200, secondsLeft(deadline) * 1000 - 500);
          lab.progress("map: watching the silent stream on the model " + chain);
          idleOnModel = silent.stop(allowedMs);
        }
      }
    }
    if (compared.isEmpty() && noData == results.size()) {
      return new Outcome(
          null,
          "no cell kept a frame on the target: nothing to compare",
          "map again on a quieter host",
          0);
    }
    if (compared.isEmpty()) return new Outcome(null, null, null, results.size() - noData);
    if (tolerance.widened()) announce.accept("replay: " + tolerance.describe());
    ReplayVerdict verdict =
        Replay.compare(
            chain,
            compared.stream().map(ComparedCell::onTarget).toList(),
            compared.stream().map(ComparedCell::onModel).toList(),
            socketStage,
            tolerance);
    List<ReplayedCell> cells = new ArrayList<>();
    for (int i = 0; i < verdict.cells().size(); i++) {
      CellMatch m = verdict.cells().get(i);
      cells.add(
          new ReplayedCell(
              m.label(),
              m.difference(),
              compared.get(i).targetStairs(),
              compared.get(i).modelStairs()));
    }
    // the cells alone say which client each was asked as; the silent stream's match, added after
    // them, is no cell's (with it, a refused replay of a chain with an idle stage indexed past the
    // cells: "Index 7 out of bounds for length 7", a map of timer=120ms,periodic=true ->
    // byte-threshold=2500B -> idle-timeout=4s, 2026-12-05)
    List<CellMatch> ofCells = verdict.cells();
    if (idleOnModel != null)
      verdict = verdict.with(new CellMatch(IdleCut.LABEL, IdleCut.difference(idle, idleOnModel)));
    // (cells left unreplayed part no clients: a refused candidate's cells say nothing of them)
    ClientsApart apart =
        verdict.verified() || refused
            ? null
            : ClientsApart.of(ofCells, compared.stream().map(ComparedCell::asked).toList());
    return new Outcome(
        verdict,
        null,
        null,
        results.size() - compared.size() - noData - leftOnceRefused,
        List.copyOf(cells),
        compared.stream().map(ComparedCell::onModel).toList(),
        apart,
        leftOnceRefused,
        compared.stream().map(ComparedCell::result).toList());
  }

  /**
   * The order a model's cells are replayed in: as measured, or, for a candidate one differing cell
   * refuses ({@code lastFirst}), last cell first: the cells measured last were measured to tell
   * models apart (the accepting client's, a pinning cell), and a candidate differs there first.
   */
  static <T> List<T> replayOrder(List<T> cells, boolean lastFirst) {
    List<T> order = new ArrayList<>(cells);
    if (lastFirst) Collections.reverse(order);
    return order;
  }

  /**
   * One cell measured on the target and again on the model: its signature and its stream on each.
   */
  private record ComparedCell(
      TargetCellResult result,
      CellEvidence onTarget,
      CellEvidence onModel,
      Staircase targetStairs,
      Staircase modelStairs,
      ClientsApart.AskedAs asked) {}
}
