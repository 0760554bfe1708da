package flushlab.map;

import flushlab.coding.ContentCoding;
import flushlab.core.FrameCodec;
import flushlab.map.CompressorFlushFit.Fitted;
import flushlab.map.CompressorFlushFit.Flush;
import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;

/**
 * The cells that pin a compressor's flush the accepting cells left loose ({@link
 * CompressorFlushFit}): a compressor flushing every N bytes of its input in front of a clock or a
 * hold releases, at each tick, the whole flushes since the last one, so a release carries two or
 * three flushes and values far apart give releases alike; a cell whose frames come slowly enough
 * that each release is one flush reads N off its releases.
 */
public final class CompressorPinning {
  private CompressorPinning() {}

  /** Sample values between a loose fit's bounds a pinning cell must read apart. */
  private static final int SAMPLES = 6;

  /** A pinning cell's stream lasts this long at most. */
  private static final long MAX_STREAM_MS = 5000;

  /** Releases a pinning cell shows at the highest value, at least: a median of several. */
  private static final int MIN_RELEASES = 2;

  /**
   * A cell that reads a loose fit's value beside a hold or a clock of {@code otherMs}: of small to
   * large frames at 2 to 300 ms, streams up to 5 s, one where the frames a release carries grow
   * with the value at every step from {@code f}'s low to its high (so each release is one flush,
   * not a sum of several), with the most frames a release at the low end (the finest reading); null
   * when no such cell exists, or the other stage is a threshold (whose count behind the compressor
   * is of compressed bytes, which a cell not measured does not have), or the compressor's own count
   * is of its output ({@code flush=bytes}: compressed bytes again; the cells pinning an input count
   * bound it too).
   */
  public static CellPlan pinningCell(
      Fitted f, Flush flush, TriggerKind other, double otherMs, boolean first) {
    return pinningCell(f, flush, other, otherMs, first, List.of());
  }

  /**
   * As above, of frame sizes and intervals none of {@code measured} has: such a cell reads no more
   * than the one measured (the 60 B cell every 2 ms, measured again to pin an input count behind a
   * 130 ms clock, a chain bench, 2026-12-07).
   */
  static CellPlan pinningCell(
      Fitted f,
      Flush flush,
      TriggerKind other,
      double otherMs,
      boolean first,
      List<CellEvidence> measured) {
    Kind kind = CompressorFlushFit.beside(other, first);
    if (kind != Kind.PERIODIC && kind != Kind.HOLD || flush != Flush.INPUT || !f.loose())
      return null;
    Stage fixed = new Stage(kind, otherMs);
    CellPlan best = null;
    double finest = 0;
    for (long size : new long[] {60, 256, 1024, 4096}) {
      for (long ms : HoldingPairFit.TELLING_INTERVALS_MS) {
        // long enough for a few flushes at the high end (a clock's or a hold's releases come
        // in between), within five seconds
        int frames =
            (int)
                Math.max(
                    HoldingPairFit.framesAt(ms),
                    Math.ceil((MIN_RELEASES + 1.5) * f.high() / Math.max(1, size)));
        if (frames * ms > MAX_STREAM_MS || measuredAlready(measured, size, ms)) continue;
        CellEvidence plan = HoldingPairFit.planned(size, ms, frames);
        double previous = -1;
        double atLow = 0;
        boolean reads = true;
        for (int i = 0; i < SAMPLES && reads; i++) {
          double v = f.low() * Math.pow(f.high() / f.low(), i / (double) (SAMPLES - 1));
          Simulated sim =
              CompressorFlushFit.simulate(plan, new Stage(flush.kind(), v), fixed, first);
          reads = !sim.drained() && sim.releases() >= MIN_RELEASES && sim.framesP50() > previous;
          if (i == 0) atLow = sim.framesP50();
          previous = sim.framesP50();
        }
        if (reads && atLow > finest) {
          finest = atLow;
          best = new CellPlan(size, ms * 1_000_000L, frames);
        }
      }
    }
    return best;
  }

  /** Whether one of {@code measured} sent frames of {@code size} B every {@code ms}. */
  private static boolean measuredAlready(List<CellEvidence> measured, long size, long ms) {
    String prefix =
        new CellPlan(size, ms * 1_000_000L, 1).toString().replace(" frames=1", " frames=");
    return measured.stream().anyMatch(c -> c.label().startsWith(prefix));
  }

  /** Cells measured at most to pin the compressor's flushes beside one stage. */
  public static final int MAX_PINNING_CELLS = 2;

  /**
   * Cells to measure as the accepting client before the compressors of {@link
   * BesideACompressor#compressorOnATimer} are fitted: for each flush and order whose value the
   * accepting cells leave loose (more than 5 % either way), the cell that reads it ({@link
   * #pinningCell}), once each, at most {@link #MAX_PINNING_CELLS}; none where those cells pin every
   * value.
   */
  public static List<CellPlan> pinningCells(
      FlushTrigger answer, List<CellEvidence> acceptingCells) {
    PlainStage b = PlainStage.of(answer);
    if (b == null || b.threshold()) return List.of();
    TriggerKind other = answer.compression().others().kind();
    // a hold or a clock (a threshold is left out above): its ms, either side of the compressor
    double ms = b.plainValue();
    List<CellPlan> plans = new ArrayList<>();
    for (Flush flush : Flush.values()) {
      if (flush == Flush.TIMER) continue; // a compressor's timer is not pinned by a cell
      for (boolean compressorFirst : new boolean[] {true, false}) {
        Fitted fitted =
            CompressorFlushFit.fit(acceptingCells, List.of(), flush, other, ms, compressorFirst);
        CellPlan plan =
            fitted == null
                ? null
                : pinningCell(fitted, flush, other, ms, compressorFirst, acceptingCells);
        if (plan != null && !plans.contains(plan) && plans.size() < MAX_PINNING_CELLS)
          plans.add(plan);
      }
    }
    return plans;
  }

  /** Cells measured at most to pin a compressor's count behind a threshold. */
  public static final int MAX_COUNT_PINNING_CELLS = 3;

  /**
   * Frame sizes an input count's pinning cell is drawn from, 5 % apart: each makes blocks of its
   * own size, and the steps of a few sizes alone fell around a span of 7239..8157 B, not in it (the
   * 512 B cell measured for `byte-threshold=3497B -> compress=gzip,flush=input,bytes=7707B` left
   * that, and no size of the output's list narrowed it).
   */
  private static final long[] INPUT_SIZES =
      LongStream.iterate(64, s -> s <= 16384, s -> Math.max(s + 1, Math.round(s * 1.05))).toArray();

  /**
   * Frame sizes an output count's pinning cell is drawn from: each compresses its own way, and is
   * simulated with the lab's encoder at that size.
   */
  private static final long[] OUTPUT_SIZES = {
    60, 128, 256, 512, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384
  };

  /** A count's pinning cell sends this many bytes of events at most. */
  private static final long MAX_PINNING_BYTES = 2L << 20;

  /** The step at which an untold span's values are told apart. */
  private static final double COUNT_STEP = 1.01;

  /**
   * The next cell to measure, as the client that accepts the coding, to pin the count of a
   * compressor behind a threshold where the cells so far ({@code acceptingCells} and {@code
   * pinning}) leave it unpinned ({@link CompressorFlushFit.Fitted#pinned}): {@code preferred}'s
   * count (of its input, {@code flush=input}, or of its output, {@code flush=bytes}) where it needs
   * one, else the other's; null where neither does, no cell narrows it, or (an output count) the
   * target's encoder is not like the lab's (the cell's bytes are simulated with the lab's).
   *
   * <p>Why: each of the threshold's releases reaches the compressor as one block, of a size the
   * frames' own size sets, and the compressor lets go once the blocks' sum reaches N, so a cell
   * tells N only to a block. Of its output: the 4 KiB cell's blocks of 98 B, anything from 585 to
   * 678 B releases seven (`byte-threshold=4144B -> compress=gzip,flush=bytes,bytes=593B` was
   * answered with 644 B, a chain bench, 2026-12-07). Of its input: blocks of 53 events of 60 B and
   * of one 4 KiB event left 6372..8172 B alike (`byte-threshold=3497B ->
   * compress=gzip,flush=input,bytes=7707B` was answered with 6969 B, said untold, a chain bench,
   * 2026-12-07). Frames of another size make blocks of another size, whose steps fall elsewhere: of
   * frames from 60 B to 16 KiB every 2 ms (both stages count bytes, so the pace moves only the
   * stream's length), the cell whose simulated releases leave the narrowest run of the span's
   * values releasing alike.
   */
  public static CellPlan countCell(
      FlushTrigger answer,
      List<CellEvidence> acceptingCells,
      List<CellEvidence> pinning,
      Flush preferred) {
    PlainStage b = PlainStage.of(answer);
    if (b == null || !b.threshold() || answer.compression().coding() == null) return null;
    ContentCoding coding = ContentCoding.named(answer.compression().coding());
    if (coding == null) return null;
    Flush other = preferred == Flush.INPUT ? Flush.OUTPUT : Flush.INPUT;
    CellPlan plan = countCell(preferred, acceptingCells, pinning, b.wireValue(), coding);
    return plan != null ? plan : countCell(other, acceptingCells, pinning, b.wireValue(), coding);
  }

  /**
   * The same for a compressor counting by {@code flush} (its input or its output) behind a
   * threshold of {@code threshold} B on the wire, the cells read in {@code coding}.
   */
  static CellPlan countCell(
      Flush flush,
      List<CellEvidence> acceptingCells,
      List<CellEvidence> pinning,
      double threshold,
      ContentCoding coding) {
    if (flush == Flush.TIMER) return null;
    Fitted f =
        CompressorFlushFit.fit(
            acceptingCells, pinning, flush, TriggerKind.BYTE_THRESHOLD, threshold, false);
    // pinned until what fits alike lies within 6 %, so that the value given, its middle, is
    // within 3 % of any of it: a span just under the 10 % that makes a value untold left 855 B
    // for a hidden 900 (`byte-threshold=3000B -> compress=gzip,flush=bytes,bytes=900B`, 14 blocks
    // of 64 B a release, a map, 2026-12-07)
    boolean output = flush == Flush.OUTPUT;
    if (f == null || f.pinned() || output && !likeTheLabs(acceptingCells, threshold)) return null;
    // the threshold the fit held, where it moved the one read
    double held = Double.isNaN(f.beside()) ? threshold : f.beside();
    List<Double> values = new ArrayList<>();
    for (double v = f.alike().lo(); v <= f.alike().hi() * (1 + 1e-9); v *= COUNT_STEP)
      values.add(v);
    Stage stage = new Stage(Kind.INPUT_THRESHOLD, held);
    CellPlan best = null;
    double narrowest = f.alike().hi() / f.alike().lo();
    for (long size : output ? OUTPUT_SIZES : INPUT_SIZES) {
      CellEvidence plan = null;
      // the fewest frames that give the span's high end a median of several releases
      for (int frames : PINNING_FRAMES) {
        if (frames * size > MAX_PINNING_BYTES) break;
        CellEvidence p =
            output
                ? compressedPlan(coding, size, frames, held)
                : size < FrameCodec.MIN_FRAME_BYTES
                    ? null
                    : HoldingPairFit.planned(size, 2, frames);
        if (p == null) break;
        Simulated atHigh =
            PairSimulation.simulate(
                p, stage, new Stage(flush.kind(), values.get(values.size() - 1)));
        if (!atHigh.drained() && atHigh.releases() >= COUNT_RELEASES) {
          plan = p;
          break;
        }
      }
      if (plan == null || measuredAlready(pinning, size, 2) || !steadyBlocks(size, held)) continue;
      double widest = widestAlike(plan, values, stage, flush);
      // narrower, or as narrow in a shorter stream
      if (widest < narrowest - 1e-9
          || best != null && widest < narrowest + 1e-9 && plan.framesPerStream() < best.frames()) {
        narrowest = widest;
        best = new CellPlan(size, 2_000_000L, plan.framesPerStream());
      }
    }
    return best;
  }

  /** Frames a count's pinning cell is tried at, fewest first. */
  private static final int[] PINNING_FRAMES = {150, 300, 600, 1200};

  /** Releases a count's pinning cell shows at the span's high end, at least. */
  private static final int COUNT_RELEASES = 8;

  /**
   * The widest ratio between values of {@code values} (ascending) whose simulated releases on
   * {@code plan} carry the same frames; infinite where the highest gives too few releases to read.
   */
  private static double widestAlike(
      CellEvidence plan, List<Double> values, Stage held, Flush flush) {
    double widest = 1;
    double runFrom = values.get(0);
    double previous = Double.NaN;
    for (double v : values) {
      Simulated sim = PairSimulation.simulate(plan, held, new Stage(flush.kind(), v));
      if (sim.drained() || sim.releases() < MIN_RELEASES) return Double.POSITIVE_INFINITY;
      if (sim.framesP50() != previous) runFrom = v;
      previous = sim.framesP50();
      widest = Math.max(widest, v / runFrom);
    }
    return widest;
  }

  /**
   * A cell of {@code frames} events of {@code size} B every 2 ms, as a client accepting {@code
   * coding} would read it behind a threshold of {@code threshold} B: its bytes a frame the lab's
   * encoder's, flushed at each of the threshold's releases; null for a size under the emitter's
   * least.
   */
  private static CellEvidence compressedPlan(
      ContentCoding coding, long size, int frames, double threshold) {
    if (size < FrameCodec.MIN_FRAME_BYTES) return null;
    int[] batches = thresholdBatches(size, threshold);
    double perFrame =
        EncoderSizes.outputPerFrame(coding, (int) size, frames, batches[0], batches[1]);
    return HoldingPairFit.planned(size, 2, frames)
        .withFrameBytes(perFrame)
        .withCoding(coding.text());
  }

  /**
   * Whether a held cell of {@code cells} has the bytes the lab's encoder makes of it behind a
   * threshold of {@code threshold} B (so a cell not measured can be simulated with the lab's).
   */
  private static boolean likeTheLabs(List<CellEvidence> cells, double threshold) {
    for (CellEvidence c : HoldingStageFits.fittable(cells)) {
      if (!c.held() || c.drained() || c.coding() == null) continue;
      int[] batches = thresholdBatches(c.bodyBytes(), threshold);
      if (EncoderSizes.behindAThreshold(c, batches[0], batches[1]) != null) return true;
    }
    return false;
  }

  /** How far a threshold read may lie from the target's: its span on the usual cells. */
  private static final double THRESHOLD_READ = 1.02;

  /**
   * Whether events of {@code size} B make blocks of the same frames at a threshold anywhere within
   * 2 % of {@code threshold}: the threshold is read to a percent or so, and a cell whose blocks
   * step within that pins the count on the threshold's error, not on the count (`byte-threshold=
   * 3497B`, read as 3465 B, made blocks of another size than the simulation's at the cell chosen).
   */
  private static boolean steadyBlocks(long size, double threshold) {
    return Arrays.equals(
        thresholdBatches(size, threshold / THRESHOLD_READ),
        thresholdBatches(size, threshold * THRESHOLD_READ));
  }

  /**
   * The frames of {@code bodyBytes} events a threshold of {@code threshold} B lets go at a time,
   * counted as the relay reads them ({@link PairSimulation#plainWireBytes}): its first batch, which
   * the response head fills part of, and every one after.
   */
  private static int[] thresholdBatches(double bodyBytes, double threshold) {
    double wire = PairSimulation.plainWireBytes(bodyBytes);
    return new int[] {
      (int) Math.max(1, Math.ceil((threshold - PairSimulation.HEAD_BYTES) / wire)),
      (int) Math.max(1, Math.ceil(threshold / wire))
    };
  }
}
