package flushlab.tcpprobe;

import flushlab.core.HiccupMeter;
import flushlab.core.StallLog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Finds the request size at which the time to a response head jumps (seed 003's upload stall: a
 * burst larger than what the server's receive buffer takes loses its tail and waits for a
 * retransmit). Sweeps the sizes given, each on fresh connections {@code attempts} times; a size has
 * stalled when its median time is over the smallest size's median by more than {@code stallOverMs}.
 * Then bisects between the largest size that did not stall and the first that did, until the two
 * are within {@code tolerance} of each other. An answer the data cannot support (sizes that stall
 * and then recover) says so. The smallest size is the baseline: sweep from a size that does not
 * stall.
 */
public final class UploadProbe {
  /** One attempt at a size (a fresh connection). */
  public interface Attempt {
    UploadAttempt.Result run(int bodyBytes) throws Exception;
  }

  /** The attempts at one size. */
  public record SizeResult(int bodyBytes, List<UploadAttempt.Result> attempts) {
    public double medianMs() {
      List<Double> t =
          attempts.stream()
              .filter(UploadAttempt.Result::ok)
              .map(UploadAttempt.Result::millis)
              .sorted()
              .toList();
      return t.isEmpty() ? Double.NaN : t.get(t.size() / 2);
    }

    public double minMs() {
      return attempts.stream()
          .filter(UploadAttempt.Result::ok)
          .mapToDouble(UploadAttempt.Result::millis)
          .min()
          .orElse(Double.NaN);
    }

    public double maxMs() {
      return attempts.stream()
          .filter(UploadAttempt.Result::ok)
          .mapToDouble(UploadAttempt.Result::millis)
          .max()
          .orElse(Double.NaN);
    }

    /** Retransmits summed over the attempts (-1 when TCP_INFO was not readable). */
    public long retransmits() {
      if (attempts.stream().anyMatch(a -> a.totalRetrans() < 0)) return -1;
      return attempts.stream().mapToLong(UploadAttempt.Result::totalRetrans).sum();
    }

    public double rttMs() {
      List<Long> r =
          attempts.stream()
              .map(UploadAttempt.Result::rttMicros)
              .filter(v -> v >= 0)
              .sorted()
              .toList();
      return r.isEmpty() ? Double.NaN : r.get(r.size() / 2) / 1000.0;
    }

    public String firstError() {
      return attempts.stream()
          .filter(a -> !a.ok())
          .map(UploadAttempt.Result::error)
          .findFirst()
          .orElse(null);
    }

    public boolean failed() {
      return attempts.stream().noneMatch(UploadAttempt.Result::ok);
    }
  }

  /**
   * The probe's answer. {@code stallFromBytes}/{@code lastCleanBytes} bound the jump (null when
   * there is none or it cannot be located); {@code verdict} says it in one line.
   */
  public record Answer(
      List<SizeResult> sweep,
      List<SizeResult> bisection,
      double baselineMs,
      Integer lastCleanBytes,
      Integer stallFromBytes,
      String verdict,
      boolean conclusive) {}

  private final int attempts;
  private final double stallOverMs;
  private final double tolerance;
  private final Attempt attempt;
  private final Consumer<String> progress;

  public UploadProbe(
      int attempts,
      double stallOverMs,
      double tolerance,
      Attempt attempt,
      Consumer<String> progress) {
    this.attempts = attempts;
    this.stallOverMs = stallOverMs;
    this.tolerance = tolerance;
    this.attempt = attempt;
    this.progress = progress;
  }

  /**
   * Attempts made before the sweep and not reported: a cold JVM's first connections are 100+ ms
   * slow.
   */
  public static final int WARMUP_ATTEMPTS = 8;

  public Answer run(List<Integer> sizes) throws Exception {
    List<Integer> sorted = sizes.stream().distinct().sorted().toList();
    for (int i = 0; i < WARMUP_ATTEMPTS; i++) attempt.run(sorted.get(0));
    List<SizeResult> sweep = new ArrayList<>();
    for (int b : sorted) {
      SizeResult r = measure(b);
      sweep.add(r);
      if (r.failed()) {
        return new Answer(
            sweep,
            List.of(),
            Double.NaN,
            null,
            null,
            "every attempt at " + b + " B failed: " + r.firstError(),
            false);
      }
    }
    double base = sweep.get(0).medianMs();
    List<SizeResult> stalled = sweep.stream().filter(r -> stalled(r, base)).toList();
    if (stalled.isEmpty()) {
      return new Answer(
          sweep,
          List.of(),
          base,
          null,
          null,
          String.format(
              Locale.ROOT,
              "no stall: every size from %d to %d B was "
                  + "answered within %.0f ms of the smallest (%.2f ms)",
              sorted.get(0),
              sorted.get(sorted.size() - 1),
              stallOverMs,
              base),
          true);
    }
    int first = sweep.indexOf(stalled.get(0));
    boolean recovers = sweep.subList(first, sweep.size()).stream().anyMatch(r -> !stalled(r, base));
    int lo = sweep.get(first - 1).bodyBytes();
    int hi = sweep.get(first).bodyBytes();
    List<SizeResult> bisection = new ArrayList<>();
    for (int step = 0; step < 24 && (hi - lo) > tolerance * hi && hi - lo > 1; step++) {
      int mid = lo + (hi - lo) / 2;
      SizeResult r = measure(mid);
      bisection.add(r);
      if (r.failed()) break;
      if (stalled(r, base)) hi = mid;
      else lo = mid;
    }
    SizeResult at =
        bisection.stream()
            .filter(r -> stalled(r, base))
            .min(Comparator.comparingInt(SizeResult::bodyBytes))
            .orElse(sweep.get(first)); // the smallest size seen to stall
    String verdict =
        String.format(
            Locale.ROOT,
            "the time to a response head jumps between %d and %d B of body: %.2f ms below, "
                + "%.1f ms from %d B (%s retransmits there)",
            lo,
            hi,
            base,
            at.medianMs(),
            at.bodyBytes(),
            at.retransmits() < 0 ? "unknown" : Long.toString(at.retransmits()));
    if (recovers) {
      verdict =
          "inconclusive: sizes above the first stall answered fast again ("
              + verdict
              + "); repeat with more --attempts";
    }
    return new Answer(sweep, bisection, base, lo, hi, verdict + againNote(), !recovers);
  }

  private String againNote() {
    return measuredAgain == 0
        ? ""
        : String.format(
            Locale.ROOT,
            "; %d attempt(s) this host stood still through for %.0f ms or more measured again",
            measuredAgain,
            stallOverMs / 2);
  }

  /**
   * How long this host stood still (its hiccup meter's logged stalls) from {@code from} to {@code
   * to}.
   */
  private static double hostStoodMs(long from, long to) {
    HiccupMeter meter = HiccupMeter.get();
    meter.awaitWatcherPast(to, WATCHER_WAIT_NANOS);
    long stood = 0;
    for (StallLog.Stall st : meter.host().between(from, to)) stood += st.nanos();
    return stood / 1e6;
  }

  /** How long an attempt waits for the meter's thread to log a stall it ended in. */
  private static final long WATCHER_WAIT_NANOS = 200_000_000L;

  private boolean stalled(SizeResult r, double base) {
    return r.medianMs() > base + stallOverMs;
  }

  /**
   * Attempts this host stood still through for half the stall margin or more, measured once more:
   * such a stall alone can carry an attempt over the margin (s267: under stalls of up to 122 ms,
   * 81920 B answered 1.2, 28.6 and 60.1 ms from a server that stalls only from 94321 B, and the
   * jump was read at 81920 B).
   */
  private int measuredAgain;

  private SizeResult measure(int bytes) throws Exception {
    List<UploadAttempt.Result> all = new ArrayList<>();
    for (int i = 0; i < attempts; i++) {
      long from = System.nanoTime();
      UploadAttempt.Result a = attempt.run(bytes);
      if (hostStoodMs(from, System.nanoTime()) >= stallOverMs / 2) {
        measuredAgain++;
        a = attempt.run(bytes);
      }
      all.add(a);
    }
    SizeResult r = new SizeResult(bytes, all);
    progress.accept(row(r));
    return r;
  }

  /** "| 65536 | 0.41 | 0.38 | 0.52 | 0 | 0.05 |": one size, as the command prints it. */
  public static String row(SizeResult r) {
    return String.format(
        Locale.ROOT,
        "| %d | %.2f | %.2f | %.2f | %s | %.3f |",
        r.bodyBytes(),
        r.medianMs(),
        r.minMs(),
        r.maxMs(),
        r.retransmits() < 0 ? "n/a" : Long.toString(r.retransmits()),
        r.rttMs());
  }

  public static final String HEADER =
      "| body bytes | time to response head p50 ms | min | max | retransmits (sum) | rtt p50 ms |\n"
          + "|---:|---:|---:|---:|---:|---:|";
}
