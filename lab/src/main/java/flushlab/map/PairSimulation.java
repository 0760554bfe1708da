package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.Arrays;

/**
 * Two stages in series simulated on a cell: the frames a cell emits (every interval from 0, each of
 * its wire size) through a first and a second holding stage, each holding what it got until its
 * trigger, as the map's relays do ({@link SimulatedCell} holds what it says against a measured
 * cell). {@link HoldingPairFit} fits the stages' values with it; the stages of a chain are read
 * through the shaper registry.
 */
final class PairSimulation {
  private PairSimulation() {}

  /**
   * A holding stage the simulation runs: a byte threshold (bytes), a hold timer or a periodic timer
   * (ms), or the kernel's cork on the client socket (its ceiling, counted from when a write first
   * met the corked socket, not from the byte's upstream arrival: the kernel knows no earlier time),
   * or one-late, which writes each release it gets only when the next one comes (no value); or a
   * compressor flushing on a timer of its own (`compress=...,flush=timer,after=T`), which counts
   * from when a write reached it, not from the byte's upstream arrival (its output is a new write),
   * or every N bytes of its input (`flush=input,bytes=N`), which are the events' own bytes, not the
   * compressed ones a client reads.
   */
  enum Kind {
    THRESHOLD,
    HOLD,
    PERIODIC,
    CORK,
    ONE_LATE,
    FLUSH_TIMER,
    FLUSH_INPUT,
    /** A compressor that flushes each write and sends once N compressed bytes wait. */
    FLUSH_OUTPUT,
    /**
     * A byte threshold in front of a compressor: what it counts is not compressed yet, the stream
     * as the relay read it from upstream (the head, and each event with its chunk framing).
     */
    INPUT_THRESHOLD;

    /** Whether the stage lets go by the bytes it holds, not by a clock. */
    boolean countsBytes() {
      return this == THRESHOLD
          || this == FLUSH_INPUT
          || this == FLUSH_OUTPUT
          || this == INPUT_THRESHOLD;
    }
  }

  /**
   * One stage and its value; a clock's ticks fall at {@code phaseMs} past each multiple of its
   * period from the stream's start (0 unless a fit asks which phase a cell was measured at).
   */
  record Stage(Kind kind, double value, double phaseMs) {
    Stage(Kind kind, double value) {
      this(kind, value, 0);
    }

    /** The same clock with its ticks {@code ms} later. */
    Stage atPhase(double ms) {
      return new Stage(kind, value, ms);
    }
  }

  /** The payload of one segment on loopback, the one path the cork is simulated on. */
  static final double SEGMENT = NetworkPath.LOOPBACK.mss();

  /**
   * Once this much waits in the cork of a new connection, all of it leaves: the kernel pushes what
   * was written past half the largest window the peer offered, about 64 KiB at first (a 52 ms hold
   * writing 40 KB into the cork let its first frame go after 52.0 ms; a threshold of 6000 B writing
   * two 4 KiB frames every 4 ms, after 14.2 ms, its fourth write: a map on 2026-12-07). Later
   * windows are megabytes and never force a push.
   */
  static final double FIRST_PUSH_BYTES = 32 * 1024;

  /**
   * The cell's frames (emitted every interval from 0, each of its wire size) through both stages:
   * each holds what it got until its trigger, then passes all of it on at once; the response's end
   * flushes both. A periodic timer ticks from the stream's start.
   */
  static Simulated simulate(CellEvidence c, Stage first, Stage second) {
    int n = c.framesPerStream();
    double interval = c.intervalMs();
    double end = (n - 1) * interval;
    double[] t = new double[n];
    int[] lastFrame = new int[n];
    for (int i = 0; i < n; i++) {
      t[i] = i * interval;
      lastFrame[i] = i;
    }
    Batches one = run(first, t, lastFrame, n, bytesCounted(first, c), interval, end, false, null);
    // behind a compressor flushing by its input, what each flush weighs depends on how often it
    // flushes: the lab's encoder's bytes at this count's cadence (EncoderSizes); a compressor
    // sending by its output behind a threshold counts each of the threshold's batches as it
    // compresses them, which the cell's average a frame does not tell
    double[] flushed =
        first.kind() == Kind.FLUSH_INPUT && second.kind() == Kind.THRESHOLD
            ? EncoderSizes.behindAnInputFlush(c, first.value(), c.frameBytes())
            : first.kind() == Kind.INPUT_THRESHOLD && second.kind() == Kind.FLUSH_OUTPUT
                ? EncoderSizes.behindAThreshold(c, batchFrames(one, 0, n), batchFrames(one, 1, n))
                : null;
    Batches two =
        run(
            second,
            one.t,
            one.last,
            one.size,
            bytesCounted(second, c),
            interval,
            end,
            compresses(first),
            flushed);
    boolean segmented =
        second.kind() == Kind.CORK && (two.bySegment || overASegment(one, c.frameBytes()));
    // releases: the first carries the head, the last is the end's flush
    int releases = Math.max(0, two.size - 2);
    double[] frames = new double[Math.max(1, releases)];
    double[] waits = new double[Math.max(1, releases)];
    // as the meter's: each kept release's time since the one before it
    double[] gaps = new double[Math.max(1, releases)];
    for (int i = 1; i < two.size - 1; i++) {
      int from = two.last[i - 1] + 1;
      frames[i - 1] = two.last[i] - from + 1;
      waits[i - 1] = two.t[i] - from * interval;
      gaps[i - 1] = two.t[i] - two.t[i - 1];
    }
    double firstWait = two.size == 0 ? 0 : two.t[0];
    boolean drained = two.size <= 1 || two.size == 2 && two.t[0] >= end;
    Arrays.sort(frames, 0, Math.max(1, releases));
    Arrays.sort(waits, 0, Math.max(1, releases));
    Arrays.sort(gaps, 0, Math.max(1, releases));
    // the lower median, as the meter's histograms give a p50: the upper one read the waits 200,
    // 240, 280 and 320 ms of a compressor in front of a clock as 280 against a measured 239
    return new Simulated(
        releases,
        releases == 0 ? 0 : frames[(releases - 1) / 2],
        releases == 0 ? 0 : waits[(releases - 1) / 2],
        firstWait,
        drained,
        two.size == 0 ? 0 : (double) n / two.size,
        releases == 0 ? 0 : frames[releases - 1],
        segmented,
        atRank(frames, releases, 0.10),
        atRank(frames, releases, 0.90),
        atRank(waits, releases, 0.10),
        atRank(waits, releases, 0.90),
        atRank(gaps, releases, 0.50));
  }

  /**
   * The value at a quantile of the first {@code n} sorted values as the meter's histograms give it:
   * the smallest that at least that share of them do not exceed (of six releases, p10 is the fewest
   * and p90 the most).
   */
  private static double atRank(double[] sorted, int n, double q) {
    return n == 0 ? 0 : sorted[Math.max(0, (int) Math.ceil(q * n) - 1)];
  }

  /** The frames batch {@code i} carries ({@code n}, the stream's, where there is no such batch). */
  private static int batchFrames(Batches b, int i, int n) {
    if (i >= b.size) return n;
    return i == 0 ? b.last[0] + 1 : b.last[i] - b.last[i - 1];
  }

  /** Whether a batch the first stage wrote carried more than a segment. */
  private static boolean overASegment(Batches b, double frameBytes) {
    for (int i = 0; i < b.size; i++) {
      int from = i == 0 ? 0 : b.last[i - 1] + 1;
      if ((b.last[i] - from + 1) * frameBytes > SEGMENT) return true;
    }
    return false;
  }

  /**
   * What a frame weighs to the stage: a compressor's input counts the events' own bytes (it reads
   * the body out of its chunks); a threshold in front of it counts what the relay read from
   * upstream, each event in its chunk's framing, as a threshold alone does: 4 KiB events weigh 4104
   * B, so a threshold of 4131 B lets two go at a time, where counting their 4096 B of body against
   * a value converted at 60 B events (3756 B) let one go, and a compressor behind it sending by its
   * output was fitted at 644 B for a hidden 593 (`byte-threshold=4144B ->
   * compress=gzip,flush=bytes,bytes=593B`, a chain bench, 2026-12-07). Any other stage counts the
   * frame as the cell measured it.
   */
  private static double bytesCounted(Stage s, CellEvidence c) {
    if (s.kind() == Kind.FLUSH_INPUT) return c.bodyBytes();
    if (s.kind() == Kind.INPUT_THRESHOLD) return plainWireBytes(c.bodyBytes());
    return c.frameBytes();
  }

  /** An event of {@code bodyBytes} as the relay reads it from upstream: in its chunk's framing. */
  static double plainWireBytes(double bodyBytes) {
    return bodyBytes + Discovery.chunkFraming(Math.round(bodyBytes));
  }

  /**
   * The response head as the lab's relay counts it: every byte it reads from upstream is data to
   * its shapers, the head's too, so a threshold's first release of a stream holds the head and
   * fewer frames (the emitter's event-stream head is 127 B with a one-digit stream number: 17
   * frames of 66 B and the head filled a 1234 B threshold that took 19 after it, so a fit that left
   * the head out read the first frame's wait as a threshold 9 % lower).
   */
  static final double HEAD_BYTES = 130;

  /** A stage that counts the relay's bytes as they came, the head's among them. */
  private static boolean countsTheHead(Stage s) {
    return s.kind() == Kind.THRESHOLD || s.kind() == Kind.INPUT_THRESHOLD;
  }

  /**
   * Batches in time order: when each left, and the last frame it carried; {@code bySegment} where a
   * cork let some go because they filled a segment (not its ceiling).
   */
  private record Batches(double[] t, int[] last, int size, boolean bySegment) {
    Batches(double[] t, int[] last, int size) {
      this(t, last, size, false);
    }
  }

  /**
   * A compressor's output is a new write: the relay stamps it with the time of the write that made
   * it go (the input that reached its count, or its timer's firing), not the oldest byte in it.
   */
  private static boolean compresses(Stage s) {
    return s.kind() == Kind.FLUSH_TIMER
        || s.kind() == Kind.FLUSH_INPUT
        || s.kind() == Kind.FLUSH_OUTPUT;
  }

  /**
   * The batches stage {@code s} lets go of what it got; {@code newWrites} where what it got are a
   * compressor's outputs, whose hold counts from when each came ({@link #compresses}); {@code
   * batchBytes} what each batch it got weighs, where not its frames at {@code frameBytes} (null).
   */
  private static Batches run(
      Stage s,
      double[] inT,
      int[] inLast,
      int inSize,
      double frameBytes,
      double interval,
      double end,
      boolean newWrites,
      double[] batchBytes) {
    if (s.kind() == Kind.ONE_LATE) return oneLate(inT, inLast, inSize, end);
    // a cork can let its held data go twice for one write (its ceiling, then a full segment)
    double[] t = new double[2 * inSize + 1];
    int[] last = new int[2 * inSize + 1];
    int size = 0;
    double heldBytes = 0;
    int heldLast = -1;
    // the cork sends whole segments and keeps the tail: the first frame it holds, and how much of
    // it has gone
    int heldFirst = 0;
    double firstSent = 0;
    double due = Double.NaN; // a hold's release or a clock's next tick, once it holds something
    int prevLast = -1;
    boolean bySegment = false;
    boolean firstPushed = false;
    // a compressor passes the response head on at once, a write at the stream's start, and the
    // cork's ceiling counts from it: the first frames a compressor on an 82 ms timer flushed went
    // at 205 ms, with the head, and every later release waited 82 ms and the ceiling (293 ms). A
    // hold's time too: a compressor flushing every 3504 B of input (59 frames of 60 B, 118 ms)
    // in front of a 291 ms hold let its first frames go after 291.2 ms, with the head, two
    // flushes in that release, where counting from the first flush gives 409 (`compress=gzip,
    // flush=input,bytes=3504B -> timer=291ms` as a browser had no candidate of that count: a
    // chain bench, seed 20261261, 2026-12-08)
    boolean headHeld = newWrites && (s.kind() == Kind.CORK || s.kind() == Kind.HOLD);
    if (headHeld) due = s.value();
    for (int i = 0; i < inSize; i++) {
      double at = inT[i];
      // what the stage's clock released before this batch came
      if (heldLast >= 0 || headHeld) {
        double release = releaseBefore(s, due, at);
        if (!Double.isNaN(release)) {
          if (heldLast >= 0) {
            t[size] = release;
            last[size++] = heldLast;
          }
          heldLast = -1;
          heldBytes = 0;
          headHeld = false;
        }
      }
      int frames = inLast[i] - prevLast;
      if (heldLast < 0) {
        heldFirst = prevLast + 1;
        firstSent = 0;
      }
      // a hold counts from when its first byte came from upstream (the relay carries that time
      // along a chain, so delays in series are not counted twice), or at once if that is past;
      // behind a compressor, from when its output came (`compress=gzip,flush=input,bytes=1367B ->
      // timer=40ms` let frames go after 84 ms, the compressor's 46 and the hold's 40; a chain
      // bench, 2026-12-06)
      if (heldLast < 0 && !headHeld && s.kind() == Kind.HOLD)
        due = newWrites ? at + s.value() : Math.max(at, (prevLast + 1) * interval + s.value());
      if (heldLast < 0 && s.kind() == Kind.PERIODIC)
        due = (Math.floor((at - s.phaseMs()) / s.value()) + 1) * s.value() + s.phaseMs();
      if (heldLast < 0 && !headHeld && (s.kind() == Kind.CORK || s.kind() == Kind.FLUSH_TIMER))
        due = at + s.value();
      boolean withTheHead = prevLast < 0;
      prevLast = inLast[i];
      heldLast = inLast[i];
      heldBytes +=
          (batchBytes != null && i < batchBytes.length ? batchBytes[i] : frames * frameBytes)
              + (withTheHead && countsTheHead(s) ? HEAD_BYTES : 0);
      if (s.kind().countsBytes() && heldBytes >= s.value()) {
        t[size] = at;
        last[size++] = heldLast;
        heldLast = -1;
        heldBytes = 0;
      } else if (s.kind() == Kind.CORK && !firstPushed && heldBytes >= FIRST_PUSH_BYTES) {
        firstPushed = true;
        t[size] = at;
        last[size++] = heldLast;
        heldLast = -1;
        heldBytes = 0;
      } else if (s.kind() == Kind.CORK && heldBytes >= SEGMENT) {
        // whole segments leave the cork at once; the tail under a segment waits for more, or the
        // ceiling (a hold of 52 ms writing 107 KB at a time: releases of one and two segments, the
        // tail's frames a write later, 68.9 ms the oldest frame's wait against the hold's 52)
        double sent = Math.floor(heldBytes / SEGMENT) * SEGMENT;
        double through = firstSent + sent;
        int whole = (int) Math.floor(through / frameBytes + 1e-9);
        heldBytes -= sent;
        bySegment = true;
        if (whole > 0) {
          t[size] = at;
          last[size++] = Math.min(heldLast, heldFirst + whole - 1);
        }
        heldFirst += whole;
        firstSent = through - whole * frameBytes;
        if (heldFirst > heldLast || heldBytes < 1e-6) {
          heldLast = -1;
          heldBytes = 0;
        } else {
          due = at + s.value();
        }
      }
    }
    if (heldLast >= 0) {
      double release = releaseBefore(s, due, end + 1e-9);
      t[size] = Double.isNaN(release) ? end : release;
      last[size++] = heldLast;
    }
    return new Batches(t, last, size, bySegment);
  }

  /**
   * One-late: each batch leaves when the next one comes, the last with the response's end (with the
   * one before it, when that came at the end too: one write).
   */
  private static Batches oneLate(double[] inT, int[] inLast, int inSize, double end) {
    double[] t = new double[inSize];
    int[] last = new int[inSize];
    int size = 0;
    for (int i = 0; i < inSize; i++) {
      double leaves = i + 1 < inSize ? inT[i + 1] : Math.max(end, inT[i]);
      if (size > 0 && t[size - 1] >= leaves) {
        last[size - 1] = inLast[i];
      } else {
        t[size] = leaves;
        last[size++] = inLast[i];
      }
    }
    return new Batches(t, last, size);
  }

  /**
   * When the stage's clock lets what it holds go before {@code at}, or NaN: a hold's due time, a
   * clock's next tick.
   */
  private static double releaseBefore(Stage s, double due, double at) {
    return !s.kind().countsBytes() && due < at ? due : Double.NaN;
  }
}
