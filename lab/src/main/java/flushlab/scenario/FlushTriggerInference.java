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
 * A release is a run of reads less than 1 ms apart (one burst, however many 64 KiB reads it
 * took); each stream's last release is the end-of-stream flush and is not used. Only cells with
 * three or more releases per stream and two or more frames per release are evidence. Medians are
 * used (the first release also carries the response head).
 */
public final class FlushTriggerInference {
  /** Frames per read at or below this counts as streaming (the direct path's noise floor is ~1.02). */
  public static final double STREAMING_CEILING = 1.25;
  private static final double SLACK = 0.10;

  private FlushTriggerInference() {}

  /** The largest set of ranges (lo, hi] that share a point, allowing SLACK on each. */
  static boolean[] bestCover(double[][] ranges) {
    int k = ranges.length;
    boolean[] best = new boolean[k];
    int bestCount = -1;
    for (double[] candidate : ranges) {
      double x = candidate[1]; // an optimal shared point can always be taken at some range's upper end
      boolean[] set = new boolean[k];
      int n = 0;
      for (int i = 0; i < k; i++) {
        double span = Math.max(1e-9, ranges[i][1]) * SLACK;
        if (x > ranges[i][0] - span && x <= ranges[i][1] + span) {
          set[i] = true;
          n++;
        }
      }
      if (n > bestCount) {
        bestCount = n;
        best = set;
      }
    }
    return best;
  }

  static double[] intersect(double[][] ranges, boolean[] set) {
    double lo = Double.NEGATIVE_INFINITY;
    double hi = Double.POSITIVE_INFINITY;
    for (int i = 0; i < ranges.length; i++) {
      if (!set[i]) continue;
      lo = Math.max(lo, ranges[i][0]);
      hi = Math.min(hi, ranges[i][1]);
    }
    if (lo == Double.NEGATIVE_INFINITY) return new double[] {-1, -1};
    return new double[] {Math.max(0, lo), hi};
  }

  /** The middle of a range; when slack let the ends cross, the point between them. */
  static double mid(double[] r) {
    return (r[0] + r[1]) / 2;
  }

  /** How fast the payload arrives: wire bytes per frame over the interval. */
  static double bytesPerMs(TargetCellResult c) {
    return c.included().wireBytesPerFrame() / Math.max(1e-3, Units.parseDurationNanos(c.cell().get("interval")) / 1e6);
  }

  static double releasesPerStream(TargetCellResult c) {
    return (double) c.included().releases() / Math.max(1, c.included().streamsOk());
  }

  /**
   * A range as text, "%.0f..%.0f B" and the like; when the cells' ranges, each allowed its slack,
   * overlap only through that slack, the exact ranges miss each other and there is no range to
   * print: say so instead of printing an empty one such as "(504, 462]".
   */
  static String range(double[] r, String unit, String format) {
    if (r[0] <= r[1]) return String.format(format, r[0], r[1]) + " " + unit;
    return String.format("about %.0f %s (the cells agree only within the %.0f %% slack: %.0f vs %.0f %s)", mid(r), unit,
        SLACK * 100, r[1], r[0], unit);
  }

  /**
   * "across intervals 5ms, 50ms" when the fitting cells span several values of the other setting
   * (what makes a byte trigger a byte trigger), "at the one interval measured (50ms)" when they
   * do not: then the evidence cannot say it holds whatever the interval.
   */
  static String across(List<TargetCellResult> cells, boolean[] set, String setting) {
    java.util.LinkedHashSet<String> values = new java.util.LinkedHashSet<>();
    for (int i = 0; i < cells.size(); i++) if (set[i]) values.add(cells.get(i).cell().get(setting));
    String name = setting.equals("interval") ? "interval" : "frame size";
    if (values.size() <= 1) return "at the one " + name + " measured (" + String.join("", values) + ")";
    return "across " + name + "s " + String.join(", ", values);
  }

  static int count(boolean[] set) {
    int n = 0;
    for (boolean b : set) if (b) n++;
    return n;
  }

  public static FlushTrigger infer(String target, List<TargetCellResult> cells) {
    List<String> evidence = new ArrayList<>();
    List<TargetCellResult> measured = new ArrayList<>();
    for (TargetCellResult c : cells) {
      if (c.included().frames() == 0) continue;
      measured.add(c);
      evidence.add(String.format("%s: %.2f frames/read, %.1f releases per stream, %.0f B and %.0f frames per release (p50), "
              + "%.1f ms between releases (p50), %.0f B per frame on the wire",
          c.cell().label(), c.included().framesPerRead(), releasesPerStream(c), c.included().releaseBytes().p50(),
          c.included().releaseFrames().p50(), c.included().releaseGapMs().p50(), c.included().wireBytesPerFrame()));
    }
    if (measured.isEmpty()) return new FlushTrigger(target, "inconclusive", -1, -1, "no cell produced frames", evidence);

    boolean allStreaming = measured.stream().allMatch(c -> c.included().framesPerRead() <= STREAMING_CEILING);
    if (allStreaming) {
      return new FlushTrigger(target, "none", -1, -1, "none: streams each frame (every cell at or under "
          + STREAMING_CEILING + " frames per read)", evidence);
    }
    // Drain: in every paced cell nothing arrived before the stream was (nearly) over, in one release.
    List<TargetCellResult> paced = measured.stream()
        .filter(c -> Units.parseDurationNanos(c.cell().get("interval")) > 0 && c.cell().frames() > 2).toList();
    boolean allDrained = !paced.isEmpty() && paced.stream().allMatch(c -> {
      double streamMs = (c.cell().frames() - 1) * Units.parseDurationNanos(c.cell().get("interval")) / 1e6;
      return c.included().ttftMs().p50() >= 0.9 * streamMs && releasesPerStream(c) <= 1.0;
    });
    if (allDrained) {
      return new FlushTrigger(target, "drain", -1, -1,
          "drain at end of stream: in every cell the first frame arrived only when the stream had ended, all in one release",
          evidence);
    }

    // Only cells with several releases per stream say anything about the trigger: with one or
    // two, the release is the whole stream or the head and the tail.
    List<TargetCellResult> coalescing = measured.stream()
        .filter(c -> c.included().releaseFrames().p50() >= 2)
        .filter(c -> releasesPerStream(c) >= 3)
        .toList();
    if (coalescing.isEmpty()) {
      return new FlushTrigger(target, "inconclusive", -1, -1,
          "no cell released two or more frames per read at least three times per stream; sweep smaller frames, "
              + "shorter intervals or longer streams", evidence);
    }
    int k = coalescing.size();
    double[][] byteRange = new double[k][];
    double[][] timerRange = new double[k][];
    for (int i = 0; i < k; i++) {
      TargetCellResult c = coalescing.get(i);
      double b = c.included().releaseBytes().p50();
      double g = c.included().releaseGapMs().p50();
      double interval = Units.parseDurationNanos(c.cell().get("interval")) / 1e6;
      // a byte trigger N releases whole frames once N bytes are held: N in (B - f, B]
      byteRange[i] = new double[] {b - c.included().wireBytesPerFrame(), b};
      // a timer T releases at the first frame after T: T in [G - I, G)
      timerRange[i] = new double[] {g - interval, g};
    }
    boolean[] byteSet = bestCover(byteRange);
    boolean[] timerSet = bestCover(timerRange);
    int byteCount = count(byteSet);
    int timerCount = count(timerSet);
    double[] n = intersect(byteRange, byteSet);
    double[] t = intersect(timerRange, timerSet);
    evidence.add(String.format("byte-threshold check: %d of %d coalescing cells fit one threshold %s",
        byteCount, k, range(n, "B", "in (%.0f, %.0f]")));
    evidence.add(String.format("timer check: %d of %d coalescing cells fit one timer %s", timerCount, k,
        range(t, "ms", "in [%.1f, %.1f)")));
    String byteText = String.format("byte threshold ~%.0f B (releases carry %s %s)", mid(n), range(n, "B", "%.0f..%.0f"),
        across(coalescing, byteSet, "interval"));
    String timerText = String.format("timer ~%.0f ms (releases every %s %s)", mid(t), range(t, "ms", "%.0f..%.0f"),
        across(coalescing, timerSet, "frame_size"));
    if (byteCount == k && timerCount == k) {
      return new FlushTrigger(target, "inconclusive", mid(n), mid(t), "the cells fit both " + byteText + " and " + timerText
          + "; sweep frame size and interval more widely", evidence);
    }
    if (timerCount == k) {
      // A corked socket looks exactly like a ~200 ms timer while bursts stay under a segment; say so
      // rather than pretend the two can be told apart from these cells.
      boolean corkLike = mid(t) >= 170 && mid(t) <= 260
          && coalescing.stream().allMatch(c -> c.included().releaseBytes().p50() < 65_000);
      return new FlushTrigger(target, "timer", -1, mid(t), "timer: " + timerText + (corkLike
          ? "; this is the kernel-cork signature (Linux sends a corked partial segment after ~200 ms, a full segment at once)"
          : ""), evidence);
    }
    if (byteCount == k) {
      return new FlushTrigger(target, "byte-threshold", mid(n), -1, "byte threshold: " + byteText, evidence);
    }
    // The kernel's cork: a ~200 ms timer for most cells, while the fastest payloads are released
    // sooner (the kernel pushes a corked socket's full segments out without waiting for the timer).
    if (timerCount >= 0.75 * k && mid(t) >= 170 && mid(t) <= 260) {
      double maxFitRate = 0;
      for (int i = 0; i < k; i++) if (timerSet[i]) maxFitRate = Math.max(maxFitRate, bytesPerMs(coalescing.get(i)));
      boolean restFasterAndSooner = true;
      double restMin = Double.MAX_VALUE;
      double restMax = 0;
      for (int i = 0; i < k; i++) {
        if (timerSet[i]) continue;
        TargetCellResult c = coalescing.get(i);
        restMin = Math.min(restMin, bytesPerMs(c));
        restMax = Math.max(restMax, bytesPerMs(c));
        if (bytesPerMs(c) <= maxFitRate || c.included().releaseGapMs().p50() >= t[0]) restFasterAndSooner = false;
      }
      if (restFasterAndSooner) {
        return new FlushTrigger(target, "cork", -1, mid(t), String.format(
            "kernel-cork signature: a ~%.0f ms timer (releases every %s) in %d of %d cells; in the other %d, the "
                + "fastest payloads (%s B/ms against at most %.0f B/ms elsewhere) leave sooner, as the kernel sends a "
                + "corked socket's full segments at once", mid(t), range(t, "ms", "%.0f..%.0f"), timerCount, k, k - timerCount,
            restMin == restMax ? String.format("%.0f", restMin) : String.format("%.0f..%.0f", restMin, restMax), maxFitRate), evidence);
      }
    }
    // Both, whichever first: the cells the byte trigger does not explain must share one timer, and
    // released earlier than the threshold would have (and vice versa).
    boolean[] rest = new boolean[k];
    for (int i = 0; i < k; i++) rest[i] = !byteSet[i];
    double[] tRest = intersect(timerRange, rest);
    boolean restAgree = tRest[0] <= tRest[1] * (1 + SLACK);
    boolean ordered = true;
    for (int i = 0; i < k && restAgree; i++) {
      TargetCellResult c = coalescing.get(i);
      if (byteSet[i] && c.included().releaseGapMs().p50() > tRest[1] * (1 + SLACK)) ordered = false;
      if (!byteSet[i] && c.included().releaseBytes().p50() > n[1] * (1 + SLACK)) ordered = false;
    }
    if (restAgree && ordered && byteCount > 0 && byteCount < k) {
      return new FlushTrigger(target, "threshold-or-timer", mid(n), mid(tRest), String.format(
          "both, whichever first: a byte threshold ~%.0f B (%d cells) and a timer ~%.0f ms (%d cells)",
          mid(n), byteCount, mid(tRest), k - byteCount), evidence);
    }
    return new FlushTrigger(target, "inconclusive", -1, -1,
        "neither one byte threshold nor one timer, nor the two together, explains every cell (a scheduler, noise, or a "
            + "mechanism flushlab does not model)", evidence);
  }
}
