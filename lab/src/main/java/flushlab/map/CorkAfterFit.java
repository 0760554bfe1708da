package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;

/**
 * Two stages: a holding stage (a buffer, a hold timer) whose writes then meet the kernel's cork on
 * the client socket (TCP_CORK: a partial segment waits for a full one or the ~200 ms ceiling).
 * Where the holding stage writes less often than the ceiling, each of its releases waits the
 * ceiling more and leaves alone: its frames and gaps are the stage's, its waits the stage's plus
 * the ceiling (~210 ms as this kernel runs it). Where it writes more often, the cork gathers
 * several releases (or a segment) and the cells look like a cork alone, saying nothing of the
 * stage.
 *
 * <p>So the cells whose releases came well over the ceiling apart are read back as the stage let
 * them go (each wait less the ceiling) and a byte threshold and a hold timer are fitted to those,
 * with the cells that arrived whole at their end; the others only have to look like a cork.
 * One-late in front of the cork is read the other way: every cell the cork's, each wait one
 * interval longer. Candidates only: the map names one after its replay reproduced every cell. A
 * stage that always writes faster than the ceiling leaves nothing to fit, and is not a candidate.
 */
public final class CorkAfterFit {
  private CorkAfterFit() {}

  /**
   * The cork's ceiling as this kernel runs it: 200 ms and its timer's slack (releases waited
   * 205-212 ms over the stage's). Taken off at 200 ms, a hold of 300 ms was read as 308.1 ms; at
   * 210, as 297.8.
   */
  static final double CEILING_MS = 210;

  /** How much less the ceiling may have been: 200 ms, its nominal value. */
  static final double CEILING_SLACK_MS = CEILING_MS - 200;

  /** Releases this far apart were the stage's own, one to a cork release. */
  static final double STAGE_GAP_MS = 270;

  /**
   * The candidates these cells allow; empty when none (another path, a cell compressed, or no cell
   * released slower than the ceiling).
   */
  public static List<TwoStageCandidate> candidates(
      String target, List<CellEvidence> cells, NetworkPath path) {
    if (!path.equals(NetworkPath.LOOPBACK)) return List.of();
    List<CellEvidence> measured = HoldingStageFits.fittable(cells);
    if (measured.isEmpty() || measured.stream().anyMatch(CellEvidence::compressed))
      return List.of();
    List<String> evidence = HoldingStageFits.described(measured);
    TwoStageCandidate oneLate = oneLateThenCork(target, measured, path, evidence);
    if (oneLate != null) return List.of(oneLate);
    List<CellEvidence> stage = new ArrayList<>();
    for (CellEvidence c : measured) {
      if (c.drained()) {
        stage.add(c);
      } else if (c.heldOnce()) {
        // one release before the end: when the stage let it go is not known (the cork's ceiling is
        // not a
        // clean constant), so the replay judges it
        continue;
      } else if (c.held() && c.gapP50() >= STAGE_GAP_MS) {
        stage.add(c.waitingLess(CEILING_MS));
      } else if (!corkLike(c)) {
        // more than a segment at once: the cork passes the stage's release a segment at a time and
        // holds its tail for
        // the ceiling, so the cell's releases mix the two (`timer=336ms -> cork`, 4 KiB every 2 ms:
        // 5.8-720 KB a release,
        // 81 ms apart at the median); the replay judges it
        if (c.held() && c.releaseBytesP90() > NetworkPath.LOOPBACK_MTU) continue;
        return List.of();
      }
    }
    if (stage.stream().noneMatch(CellEvidence::held)) return List.of();
    // no clock: a periodic timer's releases meet the cork's ceiling at a new phase each time
    return HoldingStageFits.of(target, stage, evidence, path, false, CEILING_SLACK_MS).stream()
        .map(CorkAfterFit::followedByCork)
        .toList();
  }

  /**
   * The clock twins of {@code holds}, this fit's candidates: where one is a hold before the cork, a
   * clock before it fitted by simulation ({@link HoldingPairFit}), to be replayed beside it and
   * told apart by a cell more where both reproduce every cell. The cork's ceiling hides a clock's
   * phase in every cell the map measures first: `timer=293ms,periodic=true -> cork` was answered a
   * hold of 283.2 ms then the cork, verified 5 of 5, the clock never replayed (a chain bench,
   * 2026-12-07). Empty where no candidate is a hold.
   */
  public static List<TwoStageCandidate> clockTwins(
      String target, List<CellEvidence> cells, NetworkPath path, List<TwoStageCandidate> holds) {
    if (holds.stream().noneMatch(c -> ChainStages.isPair(c.chain(), Kind.HOLD, Kind.CORK)))
      return List.of();
    return HoldingPairFit.candidates(target, cells, path).stream()
        .filter(c -> ChainStages.isPair(c.chain(), Kind.PERIODIC, Kind.CORK))
        .toList();
  }

  /**
   * One-late in front of the cork: every cell the cork's, each oldest frame one interval later than
   * the cork alone holds it (one-late passed each frame on as the next came). A cork alone fits
   * badly where the interval is long (60 B every 50 ms waited 260.8 ms, every 2 ms 213.4); read one
   * interval earlier, every cell waits the cork's ~210 ms. Null when the cells do not read so.
   */
  private static TwoStageCandidate oneLateThenCork(
      String target, List<CellEvidence> measured, NetworkPath path, List<String> evidence) {
    if (measured.stream().anyMatch(c -> !c.held() || !corkLike(c))) return null;
    List<CellEvidence> earlier = measured.stream().map(c -> c.waitingLess(c.intervalMs())).toList();
    ThresholdOrTimerFit.BothFit fit = ThresholdOrTimerFit.fit(earlier, path);
    if (fit == null) return null;
    FlushTrigger cork = ThresholdOrTimerFit.answer(target, fit, earlier, evidence, path);
    if (cork.kind() != TriggerKind.CORK) return null;
    String verdict =
        "one-late: each event is held until the next one arrives; then "
            + cork.verdict()
            + " (every oldest frame one "
            + "interval later than the cork alone holds it: one-late passed each frame on as the next came)";
    FlushTrigger both =
        new FlushTrigger(
                target, TriggerKind.ONE_LATE, null, null, null, null, verdict, evidence, List.of())
            .followedBy(TriggerKind.CORK, verdict);
    return new TwoStageCandidate(ShaperModel.uncompressed(both).chain(), both);
  }

  /**
   * Held by the cork: releases about the ceiling apart (and what waited for the next stage's
   * write), or a segment at a time.
   */
  static boolean corkLike(CellEvidence c) {
    if (!c.held()) return false;
    boolean segment =
        c.releaseBytesP50() >= SocketStageFit.SEGMENT_SHARE * NetworkPath.LOOPBACK_MTU;
    return segment || c.gapP50() >= ThresholdOrTimerFit.CORK_MIN_MS && c.gapP50() < STAGE_GAP_MS;
  }

  private static TwoStageCandidate followedByCork(FlushTrigger holding) {
    FlushTrigger both =
        holding.followedBy(
            TriggerKind.CORK,
            holding.verdict()
                + "; then the kernel's cork on the client socket "
                + "(TCP_CORK): each of those writes waited ~"
                + (int) CEILING_MS
                + " ms more (its ceiling) for a full segment, and writes "
                + "closer together than that left together");
    return new TwoStageCandidate(ShaperModel.uncompressed(both).chain(), both);
  }
}
