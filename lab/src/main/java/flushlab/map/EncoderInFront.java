package flushlab.map;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The candidate where clients that accept the coding read an encoder (output only as the
 * compressor's own buffers fill, and at the end) and the others one-late, with the encoder in
 * front: each block it writes waits for the next, so the last block and the trailer come with the
 * end and a stream whose whole output is one block is held to its end. The other order (one-late,
 * then the encoder) lets the blocks go as they fill: `compress=gzip,flush=none -> one-late` as a
 * browser was refused that order (its 4 KiB cell held to its end on the target, not on that model)
 * and left inconclusive, the hidden chain never tried (a chain bench, seed 20261251, 2026-12-07).
 */
public final class EncoderInFront {
  private EncoderInFront() {}

  /**
   * The encoder, then one-late; null where the passes say otherwise ({@code answer}'s accepting
   * pass no encoder, or the others' stage not one-late). {@code asItIsFirst}: the plain pass was
   * the map's first; {@code heldOnly} as {@link CompressionFinding#of} takes it.
   */
  public static TwoStageCandidate of(FlushTrigger answer, boolean asItIsFirst, String heldOnly) {
    CompressionFinding f = answer.compression();
    if (f == null || f.coding() == null || f.accepting() == null || f.others() == null) return null;
    if (f.accepting().kind() != TriggerKind.ENCODER || f.others().kind() != TriggerKind.ONE_LATE)
      return null;
    String algo = f.coding().toLowerCase(Locale.ROOT);
    if (!ShaperModel.compressible(algo)) return null;
    String chain = "compress=" + algo + ",flush=none -> one-late";
    String verdict =
        "a compressor never flushed between writes, then one-late: each block it writes waits for"
            + " the next, the last with the end";
    return NextWriteInFront.inFront(
        answer, asItIsFirst, TriggerKind.ENCODER, chain, verdict, heldOnly);
  }

  /** {@code others}, with the candidate {@link #of} gives first where it gives one. */
  public static List<TwoStageCandidate> first(
      FlushTrigger answer, boolean asItIsFirst, String heldOnly, List<TwoStageCandidate> others) {
    TwoStageCandidate candidate = of(answer, asItIsFirst, heldOnly);
    if (candidate == null) return others;
    List<TwoStageCandidate> all = new ArrayList<>(List.of(candidate));
    all.addAll(others);
    return all;
  }
}
