package flushlab.map;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The candidate where clients that accept the coding saw what no one mechanism explains and the
 * others a hold timer or a clock alone, with the compressor in front of that stage: it flushes each
 * event only when the next one comes (`flush=next`, the encoder flush reported of Express's
 * `compression`), so every event reaches the stage one interval late, and the accepting cells'
 * oldest frames wait the stage and an interval. The other order ({@link
 * BesideACompressor#flushingOneLate}, the stage then the compressor) delays each release by a
 * release: `compress=gzip,flush=next -> timer=150ms` as a browser was refused that order (its 20 ms
 * cell's oldest frame waited 170.4 ms on the target, 310.8 on that model) and answered
 * `timer=150.3ms -> compress=gzip,flush=input,bytes=208B`, which replayed alike on every cell, the
 * hidden chain never tried; `compress=gzip,flush=next -> timer=71ms,periodic=true` was inconclusive
 * with that order alone tried (`flushlab map --shape A --shape B --client browser --verify`,
 * 2026-12-07).
 */
public final class NextWriteInFront {
  private NextWriteInFront() {}

  /** The stages the compressor is put in front of: those that count no bytes. */
  private static final Set<TriggerKind> TIMED =
      EnumSet.of(TriggerKind.TIMER, TriggerKind.PERIODIC_TIMER);

  /**
   * The compressor flushing on the next write, then the stage the other client saw; null where the
   * passes say otherwise ({@code answer}'s accepting pass explained, or the others' stage no hold
   * or clock), or no built-in relay runs it. {@code asItIsFirst}: the plain pass was the map's
   * first, so its answer is the top-level one; {@code heldOnly} as {@link CompressionFinding#of}
   * takes it.
   */
  public static TwoStageCandidate of(FlushTrigger answer, boolean asItIsFirst, String heldOnly) {
    CompressionFinding f = answer.compression();
    if (f == null || !f.besideOneStage()) return null;
    FlushTrigger others = f.others();
    if (!TIMED.contains(others.kind()) || f.accepting().kind() != TriggerKind.INCONCLUSIVE)
      return null;
    ShaperModel stage = ShaperModel.single(others);
    if (stage == null || stage.chain() == null) return null;
    String chain =
        "compress=" + f.coding().toLowerCase(Locale.ROOT) + ",flush=next -> " + stage.chain();
    String verdict =
        String.format(
            Locale.ROOT,
            "a compressor that flushes each event only when the next one comes, before a %s of %.1f"
                + " ms: every event reached it one interval late",
            others.kind() == TriggerKind.PERIODIC_TIMER ? "clock" : "hold",
            others.timerMs());
    return inFront(answer, asItIsFirst, TriggerKind.ONE_LATE, chain, verdict, heldOnly);
  }

  /**
   * The candidate of a compressor ({@code compressor}: how the accepting client would read it
   * alone) in front of the stage the other client saw, as {@code chain} runs it; its answer the
   * plain pass's at the top level where that pass was the map's first ({@code asItIsFirst}).
   */
  static TwoStageCandidate inFront(
      FlushTrigger answer,
      boolean asItIsFirst,
      TriggerKind compressor,
      String chain,
      String verdict,
      String heldOnly) {
    CompressionFinding f = answer.compression();
    FlushTrigger both =
        new FlushTrigger(
                answer.target(), compressor, null, null, null, null, verdict, List.of(), List.of())
            .followedBy(f.others().kind(), verdict)
            .withStages(chain);
    CompressionFinding joined =
        CompressionFinding.of(
            f.coding(), f.acceptingClient(), both, f.othersClient(), f.others(), heldOnly);
    return new TwoStageCandidate(chain, (asItIsFirst ? f.others() : both).withCompression(joined));
  }
}
