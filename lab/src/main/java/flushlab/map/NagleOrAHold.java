package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.List;

/**
 * A byte threshold then the client socket's Nagle, and a byte threshold then a hold, alike on every
 * cell the map measures by default: where frames come faster than the peer acknowledges, Nagle lets
 * the threshold's releases go as the acknowledgements come, about as often as a hold of some tens
 * of milliseconds would (`byte-threshold=6373B -> timer=66ms` was answered `byte-threshold=6369B ->
 * nagle`, verified 7 of 7 cells, as a browser: a chain bench, 2026-12-07, seed 20261251; the hold's
 * pair fitted the cells too, and is replayed only when no simpler pair reproduces them). Frames
 * over the threshold, far enough apart that the peer has acknowledged everything before each (Linux
 * delays an acknowledgement 200 ms at most), tell them apart: Nagle sends each at once, the hold
 * keeps each for its length.
 */
public final class NagleOrAHold {
  private NagleOrAHold() {}

  /**
   * The least pause between the telling cell's frames: past the longest delayed acknowledgement.
   */
  static final double PAUSE_MS = 250;

  /** The pairs of {@code candidates} that are a byte threshold then a hold. */
  public static List<TwoStageCandidate> holdsAfterAThreshold(List<TwoStageCandidate> candidates) {
    return candidates.stream()
        .filter(c -> ChainStages.isPair(c.chain(), Kind.THRESHOLD, Kind.HOLD))
        .toList();
  }

  /**
   * The cell that tells {@code nagle} (a byte threshold then Nagle) from {@code holds} (each a byte
   * threshold then a hold): frames a quarter over the threshold, three holds apart and at least
   * {@link #PAUSE_MS}; null where {@code nagle} is no such answer, no hold is given, or the
   * threshold is too large to send frames over ({@link MapProber#OVER_AT_MOST}).
   */
  public static CellPlan tellingCell(FlushTrigger nagle, List<TwoStageCandidate> holds) {
    if (nagle.kind() != TriggerKind.BYTE_THRESHOLD
        || nagle.then() != TriggerKind.NAGLE
        || nagle.thresholdBytes() == null
        || nagle.thresholdBytes() > MapProber.OVER_AT_MOST) return null;
    double longest = 0;
    for (TwoStageCandidate h : holds) {
      Stage[] s = ChainStages.of(h.chain());
      if (s != null && s[1].kind() == Kind.HOLD) longest = Math.max(longest, s[1].value());
    }
    if (longest == 0) return null;
    long intervalMs = (long) Math.ceil(Math.max(PAUSE_MS, 3 * longest));
    return new CellPlan(
        MapProber.sizeOver(nagle.thresholdBytes()), intervalMs * 1_000_000L, Twin.FRAMES);
  }
}
