package flushlab.scenario;

import flushlab.core.Units;
import java.util.ArrayList;
import java.util.List;

/**
 * Infers a target's flush trigger from its cells. The reasoning, each step a check against data:
 *
 * <ul>
 *   <li>every cell near one frame per read: it streams (none);
 *   <li>every stream delivered in at most two reads: it drains and flushes at the end;
 *   <li>a byte threshold N releases whole frames once N bytes are held, so each release carries
 *       B bytes with N in (B - f, B] for frame wire size f: if those intervals agree across
 *       cells, N is where they overlap (the trigger scales with payload size);
 *   <li>a timer T releases every m x I with T in [G - I, G) for interval I and release gap G: if
 *       those agree, T is their overlap (the trigger scales with interval). Near 200 ms with
 *       small bursts, that is the kernel's TCP_CORK ceiling;
 *   <li>if neither agrees alone but every cell fits one or the other, it is both, whichever first.
 * </ul>
 * Medians are used (the first release carries the response head, the last the remainder).
 */
public final class FlushTriggerInference {
  /** Frames per read at or below this counts as streaming (the direct path's noise floor is ~1.02). */
  public static final double STREAMING_CEILING = 1.25;
  private static final double SLACK = 0.10;

  private FlushTriggerInference() {}

  public static FlushTrigger infer(String target, List<TargetCellResult> cells) {
    List<String> evidence = new ArrayList<>();
    List<TargetCellResult> measured = new ArrayList<>();
    for (TargetCellResult c : cells) {
      if (c.included().frames() == 0) continue;
      measured.add(c);
      evidence.add(String.format("%s: %.2f frames/read, %.0f B per release (p50), %.1f ms between releases (p50), %.0f B per frame on the wire",
          c.cell().label(), c.included().framesPerRead(), c.included().burstBytes().p50(),
          c.included().releaseGapMs().p50(), c.wireBytesPerFrame()));
    }
    if (measured.isEmpty()) return new FlushTrigger(target, "inconclusive", -1, -1, "no cell produced frames", evidence);

    boolean allStreaming = measured.stream().allMatch(c -> c.included().framesPerRead() <= STREAMING_CEILING);
    if (allStreaming) {
      return new FlushTrigger(target, "none", -1, -1, "none: streams each frame (every cell at or under "
          + STREAMING_CEILING + " frames per read)", evidence);
    }
    boolean allDrained = measured.stream().allMatch(c -> {
      int streams = Math.max(1, c.included().streamsOk());
      return c.included().frames() / streams > 2 && c.included().readsWithFrames() <= 2L * streams;
    });
    if (allDrained) {
      return new FlushTrigger(target, "drain", -1, -1,
          "drain at end of stream: every response arrived in at most two reads, whatever the size or interval", evidence);
    }

    List<TargetCellResult> coalescing = measured.stream().filter(c -> c.included().burstFrames().p50() >= 2).toList();
    if (coalescing.isEmpty()) {
      return new FlushTrigger(target, "inconclusive", -1, -1,
          "some reads merged frames but no cell released two or more frames per read typically; sweep smaller frames or shorter intervals",
          evidence);
    }
    // byte threshold: N in (B - f, B]
    double nLow = 0;
    double nHigh = Double.MAX_VALUE;
    for (TargetCellResult c : coalescing) {
      double b = c.included().burstBytes().p50();
      nLow = Math.max(nLow, b - c.wireBytesPerFrame());
      nHigh = Math.min(nHigh, b);
    }
    boolean bytesAgree = nLow <= nHigh * (1 + SLACK);
    // timer: T in [G - I, G)
    double tLow = 0;
    double tHigh = Double.MAX_VALUE;
    for (TargetCellResult c : coalescing) {
      double g = c.included().releaseGapMs().p50();
      double interval = Units.parseDurationNanos(c.cell().get("interval")) / 1e6;
      tLow = Math.max(tLow, g - interval);
      tHigh = Math.min(tHigh, g);
    }
    boolean timerAgrees = tLow <= tHigh * (1 + SLACK);
    double n = (nLow + Math.min(nHigh, Math.max(nLow, nHigh))) / 2;
    double t = (tLow + Math.min(tHigh, Math.max(tLow, tHigh))) / 2;
    String byteText = String.format("byte threshold ~%.0f B (releases carry %.0f..%.0f B whatever the interval)", n, nLow, nHigh);
    String timerText = String.format("timer ~%.0f ms (releases every %.0f..%.0f ms whatever the size)", t, tLow, tHigh);
    evidence.add("byte-threshold check: releases fit one threshold in (" + Math.round(nLow) + ", " + Math.round(nHigh) + "] B: " + bytesAgree);
    evidence.add("timer check: releases fit one timer in [" + Math.round(tLow) + ", " + Math.round(tHigh) + ") ms: " + timerAgrees);
    if (coalescing.size() == 1 && bytesAgree && timerAgrees) {
      return new FlushTrigger(target, "inconclusive", n, t, "one coalescing cell cannot tell " + byteText + " from " + timerText
          + "; sweep frame size and interval", evidence);
    }
    if (timerAgrees && !bytesAgree) {
      // A corked socket looks exactly like a ~200 ms timer while bursts stay under a segment; say so
      // rather than pretend the two can be told apart from these cells.
      boolean corkLike = t >= 170 && t <= 260 && coalescing.stream().allMatch(c -> c.included().burstBytes().p50() < 65_000);
      return new FlushTrigger(target, "timer", -1, t, "timer: " + timerText + (corkLike
          ? "; this is the kernel-cork signature (Linux sends a corked partial segment after ~200 ms, a full segment at once)"
          : ""), evidence);
    }
    if (bytesAgree && !timerAgrees) {
      return new FlushTrigger(target, "byte-threshold", n, -1, "byte threshold: " + byteText, evidence);
    }
    if (bytesAgree) {
      return new FlushTrigger(target, "inconclusive", n, t, "the sweep fits both " + byteText + " and " + timerText
          + "; widen the sweep", evidence);
    }
    // both: byte-bound cells carry the largest bursts, timer-bound cells have the longest gaps
    double nMax = coalescing.stream().mapToDouble(c -> c.included().burstBytes().p50()).max().orElse(0);
    double gMax = coalescing.stream().mapToDouble(c -> c.included().releaseGapMs().p50()).max().orElse(0);
    int fits = 0;
    for (TargetCellResult c : coalescing) {
      double b = c.included().burstBytes().p50();
      double g = c.included().releaseGapMs().p50();
      double interval = Units.parseDurationNanos(c.cell().get("interval")) / 1e6;
      boolean byteBound = b >= nMax * (1 - SLACK) - c.wireBytesPerFrame() && g <= gMax * (1 + SLACK);
      boolean timerBound = g >= (gMax - interval) * (1 - SLACK) && b <= nMax + c.wireBytesPerFrame();
      if (byteBound || timerBound) fits++;
    }
    if (fits == coalescing.size()) {
      return new FlushTrigger(target, "threshold-or-timer", nMax, gMax, String.format(
          "both, whichever first: a byte threshold near %.0f B in some cells, a timer near %.0f ms in others", nMax, gMax), evidence);
    }
    return new FlushTrigger(target, "inconclusive", -1, -1,
        "neither one byte threshold nor one timer explains every cell (a scheduler or a mechanism flushlab does not model)", evidence);
  }
}
