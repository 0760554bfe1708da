package flushlab.map;

import flushlab.coding.BodyEncoder;
import flushlab.coding.ContentCoding;
import flushlab.core.FrameCodec;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * What the lab's own encoder makes of a cell's frames when it flushes every k of them: compressed
 * bytes per frame, which depend on how often it flushes (each flush ends a deflate block, and the
 * next one starts with its own code tables). A compressor flushing every N bytes of its input in
 * front of a stage that counts its output gives that stage more bytes a frame the more often it
 * flushes: 4 KiB frames flushed every two reach the client as 49 B a frame, flushed each one as
 * about 70, so a threshold of 2495 B behind it lets 50 frames go at a time, or 36. A cell measured
 * as a client that accepts the coding shows the bytes a frame of one cadence only, the target's,
 * and a fit that gave every candidate count those bytes found 4031 B (a flush every frame) for a
 * hidden 6089 (every two), whose replay the 4 KiB cell refused
 * (`compress=gzip,flush=input,bytes=6089B -> byte-threshold=2495B`, a chain bench, 2026-12-06). The
 * simulation gives each count the bytes the lab's encoder, which its model's relay runs, makes at
 * that count's cadence.
 */
final class EncoderSizes {
  private EncoderSizes() {}

  /** A stream encoded: flushed after its first {@code firstFlush} frames, then every k. */
  private record Key(
      ContentCoding coding, int frameBytes, int frames, int firstFlush, int framesPerFlush) {}

  /** A stream encoded: each flush's bytes, and their sum. */
  private record Encoded(double[] flushes, double total) {}

  /** Streams encoded so far; cleared past {@link #CACHED}. */
  private static final Map<Key, Encoded> FLUSHES = new ConcurrentHashMap<>();

  /** Streams kept encoded: a map fits a few cells at a few hundred cadences each. */
  static final int CACHED = 4096;

  /**
   * Cadences the lab's encoder is tried at to tell whether a cell's bytes are ones it makes: every
   * frame to a flush of the whole stream.
   */
  private static final int[] CADENCES = {1, 2, 3, 5, 10, 20, 50, 100, 200, Integer.MAX_VALUE};

  /** How far from the lab's encoder's bytes a cell's may lie and still be its. */
  static final double LIKE = 0.10;

  /**
   * Each flush's bytes on the wire (its chunk's framing included) when the lab's encoder for {@code
   * coding} at the lab's level compresses a stream of {@code frames} of the lab's own frames of
   * {@code frameBytes}, flushing every {@code framesPerFlush} of them and at the end: the first
   * flush carries the coding's header and a cold window, as a stream's does.
   */
  static double[] flushes(ContentCoding coding, int frameBytes, int frames, int framesPerFlush) {
    return stream(coding, frameBytes, frames, framesPerFlush, framesPerFlush).flushes();
  }

  private static Encoded stream(
      ContentCoding coding, int frameBytes, int frames, int firstFlush, int framesPerFlush) {
    int k = Math.max(1, Math.min(framesPerFlush, frames));
    int k1 = Math.max(1, Math.min(firstFlush, frames));
    if (FLUSHES.size() > CACHED) FLUSHES.clear();
    return FLUSHES.computeIfAbsent(
        new Key(coding, frameBytes, frames, k1, k),
        key -> {
          double[] f = encoded(coding, frameBytes, frames, k1, k);
          double total = 0;
          for (double x : f) total += x;
          return new Encoded(f, total);
        });
  }

  private static double[] encoded(ContentCoding coding, int frameBytes, int frames, int k1, int k) {
    BodyEncoder encoder = BodyEncoder.of(coding);
    double[] sizes = new double[1 + (frames - k1 + k - 1) / k];
    long[] out = new long[1];
    byte[] frame = new byte[frameBytes];
    CRC32C crc = new CRC32C();
    // emit times as a stream's: epoch nanoseconds 2 ms apart and a few hundred microseconds off
    // it, so that the low digits vary as a real stream's do (exact steps compressed a 60 B frame
    // to 13 B where the lab's relay sent 16)
    long start = 1_780_000_000_000_000_000L;
    Random jitter = new Random(frames * 31L + frameBytes);
    try {
      for (int f = 0; f < sizes.length; f++) {
        out[0] = 0;
        int from = f == 0 ? 0 : k1 + (f - 1) * k;
        int to = f == 0 ? k1 : from + k;
        for (int seq = from; seq < Math.min(frames, to); seq++) {
          crc.reset();
          long at = start + seq * 2_000_000L + jitter.nextInt(1_000_000);
          int n = FrameCodec.encode(seq, at, frameBytes, frame, 0, crc);
          encoder.write(frame, 0, n, (b, off, len) -> out[0] += len);
        }
        encoder.flush((b, off, len) -> out[0] += len);
        sizes[f] = out[0] + chunkFraming(out[0]);
      }
    } finally {
      encoder.close();
    }
    return sizes;
  }

  /** A chunk's size line and closing line around {@code bytes} of data. */
  private static int chunkFraming(long bytes) {
    return Long.toHexString(bytes).length() + 4;
  }

  /**
   * The bytes of each flush that a stage behind a compressor flushing every {@code inputBytes} of
   * its input counts, for cell {@code c} measured as a client that accepts the coding: the lab's
   * encoder's at the cadence that count gives the cell's frames, where the cell's own bytes (its
   * bytes a frame, {@code measured}, over its stream) are ones the lab's encoder makes at some
   * cadence, so that the target's encoder is like the lab's; null otherwise (a cell not compressed,
   * or by an encoder unlike the lab's: the stage then counts {@code measured} a frame).
   */
  static double[] behindAnInputFlush(CellEvidence c, double inputBytes, double measured) {
    ContentCoding coding = c.coding() == null ? null : ContentCoding.named(c.coding());
    int body = (int) Math.round(c.bodyBytes());
    int frames = c.framesPerStream();
    if (coding == null || body < FrameCodec.MIN_FRAME_BYTES || frames < 1) return null;
    double total = measured * frames;
    boolean likeTheLabs = false;
    try {
      for (int k : CADENCES) {
        double lab = stream(coding, body, frames, k, k).total();
        if (Math.abs(lab - total) <= LIKE * total) likeTheLabs = true;
      }
      if (!likeTheLabs) return null;
      return flushes(coding, body, frames, (int) Math.max(1, Math.ceil(inputBytes / body)));
    } catch (IllegalStateException noNativeCodec) {
      // br without brotli's native library on this machine: the cell's own bytes, as before
      return null;
    }
  }

  /**
   * The bytes of each batch a byte threshold in front of a compressor gives it, as the compressor
   * sends them (it flushes each write: `flush=bytes` counts those outputs until N wait): the lab's
   * encoder's, flushed after the first batch's {@code firstBatch} frames (the response head filled
   * part of it) and every {@code framesPerBatch} after, for cell {@code c}, where the cell's own
   * bytes (its bytes a frame over its stream) are within {@link #LIKE} of what the lab's encoder
   * makes so (the target's encoder is like the lab's); null otherwise, or for a cell not
   * compressed. One batch's output is not each one's average: the first carries the coding's header
   * and a cold window, and which of a stream's releases take one batch more is where an output
   * count lies between two sums.
   */
  static double[] behindAThreshold(CellEvidence c, int firstBatch, int framesPerBatch) {
    ContentCoding coding = c.coding() == null ? null : ContentCoding.named(c.coding());
    int body = (int) Math.round(c.bodyBytes());
    int frames = c.framesPerStream();
    if (coding == null || body < FrameCodec.MIN_FRAME_BYTES || frames < 1) return null;
    try {
      double[] output = output(coding, body, frames, firstBatch, framesPerBatch);
      double total = 0;
      for (double x : output) total += x;
      double measured = c.frameBytes() * frames;
      return Math.abs(total - measured) <= LIKE * measured ? output : null;
    } catch (IllegalStateException noNativeCodec) {
      return null;
    }
  }

  /**
   * Each flush's output as the encoder gives it, before the relay frames what it sends in a chunk
   * (one a release, not one a batch: 6 B a batch is a batch more in seven of 98 B).
   */
  private static double[] output(
      ContentCoding coding, int frameBytes, int frames, int firstBatch, int framesPerBatch) {
    double[] flushes = stream(coding, frameBytes, frames, firstBatch, framesPerBatch).flushes();
    double[] output = new double[flushes.length];
    for (int i = 0; i < flushes.length; i++)
      output[i] = flushes[i] - chunkFraming((long) flushes[i]);
    return output;
  }

  /**
   * The encoder's output a frame ({@link #behindAThreshold}'s bytes, averaged) the lab's encoder
   * makes of {@code frames} frames of {@code frameBytes}, flushed after the first {@code
   * firstBatch} and every {@code framesPerBatch} after: what a cell not yet measured would show a
   * client accepting {@code coding} behind a threshold, where the cells measured showed the
   * target's encoder is like the lab's.
   */
  static double outputPerFrame(
      ContentCoding coding, int frameBytes, int frames, int firstBatch, int framesPerBatch) {
    double total = 0;
    for (double x : output(coding, frameBytes, frames, firstBatch, framesPerBatch)) total += x;
    return total / frames;
  }
}
