package flushlab.map;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Candidates of two stages for a target that compressed for one kind of client: fitted to the pass
 * of the client that got the stream as it is, and each joined with what the other client saw, since
 * a replay runs every cell, both clients'. Stock nginx with gzip on is an encoder for a browser and
 * Nagle for curl: `nagle` replayed alone left the browser's cells unheld and was refused; joined,
 * `nagle -> compress=gzip,flush=none` reproduced every cell (2026-12-04).
 */
public final class BesideACompressor {
  private BesideACompressor() {}

  /**
   * Each candidate joined with the compressor in {@code answer}'s finding: the answer that
   * candidate would make ({@code asItIsFirst}: the plain pass was the map's first, so the
   * candidate's answer is the top-level one), and the model {@link ShaperModel#of(FlushTrigger)}
   * builds from it. A candidate no built-in relay models beside that compressor is dropped.
   */
  public static List<TwoStageCandidate> joined(
      List<TwoStageCandidate> two, FlushTrigger answer, boolean asItIsFirst, String heldOnly) {
    List<TwoStageCandidate> out = new ArrayList<>();
    for (TwoStageCandidate c : two) {
      TwoStageCandidate j = joined(answer, c.answer(), asItIsFirst, heldOnly);
      if (j != null) out.add(j);
    }
    return out;
  }

  /**
   * The answer with the output count of its compressor behind a threshold read again with the cells
   * measured to pin it ({@link CompressorPinning#countCell}): where clients that accept the coding
   * read a threshold of compressed bytes and the others a threshold, the model is that threshold,
   * then a compressor sending once N bytes of output wait, and N is what the accepting pass's
   * threshold was read as, the middle of the values its cells allowed. Each of the threshold's
   * releases compresses as one block, so the pinning cells (frames of other sizes, blocks of other
   * sizes) tell N to their blocks, and where they pin it within {@link ThresholdPairFit#PINNED}
   * their value is the model's (`byte-threshold=1200B -> compress=gzip,flush=bytes,bytes=300B` was
   * answered with the middle, 318 B, verified, after two such cells were measured and not read: a
   * map, 2026-12-07). The answer as it was otherwise; {@code asItIsFirst}: the plain pass was the
   * map's first, so the accepting one is not the top.
   */
  public static FlushTrigger outputCountPinned(
      FlushTrigger answer,
      boolean asItIsFirst,
      List<CellEvidence> acceptingCells,
      List<CellEvidence> pinning,
      String heldOnly) {
    CompressionFinding f = answer.compression();
    if (pinning.isEmpty()
        || f == null
        || f.coding() == null
        || f.accepting() == null
        || f.others() == null
        || f.accepting().kind() != TriggerKind.BYTE_THRESHOLD
        || f.others().kind() != TriggerKind.BYTE_THRESHOLD
        || f.others().thresholdBytes() == null) return answer;
    CompressorFlushFit.Fitted fit =
        CompressorFlushFit.fit(
            acceptingCells,
            pinning,
            CompressorFlushFit.Flush.OUTPUT,
            TriggerKind.BYTE_THRESHOLD,
            f.others().thresholdBytes(),
            false);
    if (fit == null || !fit.pinned()) return answer;
    String verdict =
        f.accepting().verdict()
            + String.format(
                Locale.ROOT,
                "; behind the threshold the others saw, a compressor that sends once ~%.0f B of"
                    + " its output wait (%s fit alike), read off the blocks each of that threshold's"
                    + " releases compresses to, as %d cell(s) measured to pin it showed",
                fit.value(),
                fit.alike().text("B"),
                pinning.size());
    FlushTrigger pinned =
        FlushTriggerBuilder.builder(f.accepting())
            .thresholdBytes(fit.value())
            .verdict(verdict)
            .build();
    CompressionFinding g =
        CompressionFinding.of(
            f.coding(), f.acceptingClient(), pinned, f.othersClient(), f.others(), heldOnly);
    FlushTrigger top =
        asItIsFirst
            ? answer
            : FlushTriggerBuilder.builder(answer).thresholdBytes(fit.value()).build();
    return top.withCompression(g);
  }

  /**
   * What the cells leave untold of a compressor's fitted flush: "; its count fits every cell alike
   * anywhere in 1798..3368 B, which no cell measured pins" where values wider apart than a model's
   * parameter may be off fit as closely as the one given ({@link
   * CompressorFlushFit.Fitted#untold}); empty otherwise. The model's value is then one of them, and
   * the answer says so rather than give it as read (issue 35: no number the cells did not show).
   */
  static String untold(CompressorFlushFit.Fitted fitted, CompressorFlushFit.Flush flush) {
    if (fitted == null || !fitted.untold()) return "";
    return String.format(
        Locale.ROOT,
        "; its %s fits every cell alike anywhere in %s, which no cell measured pins",
        flush == CompressorFlushFit.Flush.TIMER ? "timer" : "count",
        flush == CompressorFlushFit.Flush.TIMER
            ? String.format(Locale.ROOT, "%.1f..%.1f ms", fitted.alike().lo(), fitted.alike().hi())
            : fitted.alike().text("B"));
  }

  /**
   * The other candidate where no one mechanism explained the plain pass ({@code asItIs}): that
   * client got the same encoder's output, decoded on delivery (Varnish with do_gzip stores the gzip
   * and gunzips it for a client that does not accept it), so it saw the encoder's holding in plain
   * bytes. Only for an encoder or a threshold of decoded bytes, which only a compressor does. Not
   * where one mechanism explained the plain pass: a byte threshold there, before a compressor
   * flushing each write, replays exactly as a compressor flushing every N bytes of input decoded
   * for that client (a fresh-clone suite, 2026-12-04, gave the second in place of the first when
   * the first's replay was refused once). Null otherwise, or when no built-in relay does it.
   */
  public static TwoStageCandidate decodedOnDelivery(
      FlushTrigger answer, FlushTrigger asItIs, boolean asItIsFirst, String heldOnly) {
    if (asItIs.kind() != TriggerKind.INCONCLUSIVE) return null;
    CompressionFinding f = answer.compression();
    FlushTrigger a = f.accepting();
    if (a == null || a.kind() != TriggerKind.ENCODER && a.kind() != TriggerKind.DECODED_THRESHOLD)
      return null;
    FlushTrigger plain =
        new FlushTrigger(
            asItIs.target(),
            a.kind(),
            a.thresholdBytes(),
            a.thresholdBodyBytes(),
            a.timerMs(),
            a.events(),
            "the stream as clients that accept "
                + f.coding()
                + " get it, decoded on delivery: "
                + a.verdict(),
            asItIs.evidence(),
            List.of());
    return joined(answer, plain, asItIsFirst, heldOnly);
  }

  /**
   * The candidate where clients that accept the coding saw what no one mechanism explains and the
   * others a holding stage alone: a compressor behind that stage that flushes its encoder only when
   * the next write comes (`flush=next`, the bug reported of Express's `compression`), so each of
   * the stage's releases reaches the accepting client one release late. `timer=113ms,periodic=true
   * -> compress=gzip,flush=next` was answered with no model and no candidate: the accepting pass
   * waited 226 ms a release, the other 113 (2026-12-05). Null where the passes say otherwise, or no
   * built-in relay does it; {@code asItIsFirst}: the plain pass was the map's first.
   */
  public static TwoStageCandidate flushingOneLate(
      FlushTrigger answer, boolean asItIsFirst, String heldOnly) {
    CompressionFinding f = answer.compression();
    if (f == null || !f.besideOneStage()) return null;
    FlushTrigger accepting = f.accepting();
    FlushTrigger others = f.others();
    // beside a holding stage, the accepting pass unexplained; beside one-late, also read as a
    // threshold-or-timer, which no compressor of the lab's does alone (one-late in front of a
    // one-late compressor, two writes late, was read so, and answered with no model: a chain bench,
    // 2026-12-05); beside a threshold such a reading is a compressor on a timer's, tried next
    // beside the cork, read as one hold of the ceiling and what the compressor added: a compressor
    // on a short timer and one flushing one write late replay alike there, and only the timer was
    // tried (`cork -> compress=gzip,flush=next` answered `compress=gzip,flush=timer,after=20ms ->
    // cork`, 20 ms the grid's least: a browser chain bench, seed 20261227)
    boolean besideTheCork =
        others.kind() == TriggerKind.CORK
            && EnumSet.of(
                    TriggerKind.TIMER, TriggerKind.THRESHOLD_OR_TIMER, TriggerKind.INCONCLUSIVE)
                .contains(accepting.kind());
    boolean beside =
        HOLDING.contains(others.kind()) && accepting.kind() == TriggerKind.INCONCLUSIVE
            || besideTheCork
            || others.kind() == TriggerKind.ONE_LATE
                && (accepting.kind() == TriggerKind.INCONCLUSIVE
                    || accepting.kind() == TriggerKind.THRESHOLD_OR_TIMER);
    if (!beside) return null;
    FlushTrigger late =
        others.followedBy(
            TriggerKind.ONE_LATE,
            others.verdict()
                + "; for clients that accept "
                + f.coding()
                + ", then a compressor that flushes each of those releases only when the next one"
                + " comes, so each reaches them one release late");
    CompressionFinding both =
        CompressionFinding.of(
            f.coding(), f.acceptingClient(), late, f.othersClient(), others, heldOnly);
    // the map's first pass is the answer's top level: the plain one, or the accepting one, read now
    // as that stage one release late
    FlushTrigger joined = (asItIsFirst ? others : late).withCompression(both);
    String chain = ShaperModel.of(joined).chain();
    return chain == null ? null : new TwoStageCandidate(chain, joined);
  }

  /**
   * The candidates where clients that accept the coding saw what no one mechanism explains and the
   * others a hold timer or a clock alone: a compressor that flushes its encoder on a timer of its
   * own (`flush=timer`) or every N bytes of its input (`flush=input`), before that stage or after
   * it, so every accepting release waited both. Beside a hold, the timer is what the accepting
   * cells' median waits show beyond the hold. `compress=gzip,flush=timer,after= 74ms -> timer=40ms`
   * was answered with no model and no candidate: the plain pass a 40.1 ms hold, the accepting one
   * waits of 114.2 ms every 76-100 ms (a chain bench, 2026-12-05). Beside a clock the waits spread
   * over its period as the two timers' phases drift, so no median reads the compressor's timer back
   * (the median less half the period gave 147.8 ms for a hidden 158), and a byte count is read off
   * no median either: those are simulated, each order on its own ({@link CompressorFlushFit#fit}),
   * and only values whose simulation matches every cell are offered. Both orders are offered; the
   * replay tells them apart where the cells can. An accepting pass read as an encoder (a compressor
   * every N input bytes of small frames looks like one) gets them too, for the map to try once that
   * reading's model failed its replay. Empty where the passes say otherwise.
   */
  public static List<TwoStageCandidate> compressorOnATimer(
      FlushTrigger answer,
      boolean asItIsFirst,
      List<CellEvidence> acceptingCells,
      List<CellEvidence> pinning) {
    PlainStage b = PlainStage.of(answer);
    if (b == null) return List.of();
    CompressionFinding f = answer.compression();
    FlushTrigger others = f.others();
    boolean timer = b.timer();
    double wireValue = b.wireValue();
    Double beyondTheHold = timer ? beyondTheHold(acceptingCells, others.timerMs()) : null;
    String algo = f.coding().toLowerCase(Locale.ROOT);
    String stage = ShaperModel.single(others).chain();
    List<TwoStageCandidate> out = new ArrayList<>();
    TwoStageCandidate encoderFirst = encoderInFront(answer, asItIsFirst, b, stage);
    if (encoderFirst != null) out.add(encoderFirst);
    // every flush, beside any stage: a compressor sending by its output too, since behind a
    // threshold each release compresses as a block, so its output comes in steps an input count
    // cannot match (`byte-threshold=4144B -> compress=gzip,flush=bytes,bytes=593B` had no model,
    // 2026-12-05), and behind a hold an input count can replay alike on every cell, and then both
    // are named (`timer=249ms -> compress=gzip,flush=bytes,bytes=2289B` had no candidate of its
    // kind: 2026-12-06)
    for (CompressorFlushFit.Flush flush : CompressorFlushFit.Flush.values()) {
      boolean timed = flush == CompressorFlushFit.Flush.TIMER;
      for (boolean compressorFirst : new boolean[] {true, false}) {
        CompressorFlushFit.Fitted fitted =
            timed && timer
                ? null
                : CompressorFlushFit.fit(
                    acceptingCells, pinning, flush, others.kind(), wireValue, compressorFirst);
        Double value = timed && timer ? beyondTheHold : fitted == null ? null : fitted.value();
        if (value == null) continue;
        // the wire threshold behind the compressor the fit held, where it moved the one read by a
        // percent or two (CompressorFlushFit moves no other stage)
        boolean moved = fitted != null && !Double.isNaN(fitted.beside());
        String besideStage = moved ? "byte-threshold=" + Math.round(fitted.beside()) + "B" : stage;
        double besideWire = moved ? fitted.beside() : wireValue;
        String compressor =
            "compress="
                + algo
                + switch (flush) {
                  case TIMER -> ",flush=timer,after=" + ShaperModel.ms(value);
                  case INPUT -> ",flush=input,bytes=" + Math.round(value) + "B";
                  case OUTPUT -> ",flush=bytes,bytes=" + Math.round(value) + "B";
                };
        String chain =
            compressorFirst ? compressor + " -> " + besideStage : besideStage + " -> " + compressor;
        String verdict =
            String.format(
                    Locale.ROOT,
                    "a compressor that flushes %s, %s %s: every release waited both",
                    switch (flush) {
                      case TIMER ->
                          String.format(
                              Locale.ROOT, "%.1f ms after the first byte it holds", value);
                      case INPUT ->
                          String.format(Locale.ROOT, "every %d B of its input", Math.round(value));
                      case OUTPUT ->
                          String.format(
                              Locale.ROOT,
                              "each write, sending once %d B of output wait",
                              Math.round(value));
                    },
                    compressorFirst ? "before" : "after",
                    b.described(compressorFirst, besideWire))
                + untold(fitted, flush);
        FlushTrigger compressorStage =
            new FlushTrigger(
                answer.target(),
                switch (flush) {
                  case TIMER -> TriggerKind.TIMER;
                  case INPUT -> TriggerKind.DECODED_THRESHOLD;
                  case OUTPUT -> TriggerKind.BYTE_THRESHOLD;
                },
                timed ? null : value,
                null,
                timed ? value : null,
                null,
                verdict,
                List.of(),
                List.of());
        FlushTrigger both =
            (compressorFirst
                    ? compressorStage.followedBy(others.kind(), verdict)
                    : new FlushTrigger(
                            answer.target(),
                            others.kind(),
                            others.thresholdBytes(),
                            others.thresholdBodyBytes(),
                            others.timerMs(),
                            null,
                            verdict,
                            List.of(),
                            List.of())
                        .followedBy(compressorStage.kind(), verdict))
                .withStages(chain);
        CompressionFinding joined =
            CompressionFinding.of(
                f.coding(), f.acceptingClient(), both, f.othersClient(), others, null);
        out.add(
            new TwoStageCandidate(chain, (asItIsFirst ? others : both).withCompression(joined)));
      }
    }
    return out;
  }

  /**
   * An accepting pass read as an encoder (a compressor that never flushes between writes) beside a
   * plain hold or clock: that reading's model puts the stage first, and once its replay refused it
   * the other order is tried first, the encoder in front of the stage, whose buffers the stage's
   * releases never fill the same way (`compress=gzip,flush=none -> timer=293ms` was answered with
   * no model: `timer=293.4ms -> compress=gzip,flush=none` held the 4 KiB cell to its end, and the
   * hidden order was never replayed: a browser chain bench, 2026-12-06). Null otherwise.
   */
  private static TwoStageCandidate encoderInFront(
      FlushTrigger answer, boolean asItIsFirst, PlainStage b, String stage) {
    CompressionFinding f = answer.compression();
    if (f.accepting().kind() != TriggerKind.ENCODER || !(b.timer() || b.clock())) return null;
    String chain = "compress=" + f.coding().toLowerCase(Locale.ROOT) + ",flush=none -> " + stage;
    String verdict =
        String.format(
            Locale.ROOT,
            "a compressor that never flushes between writes (its own buffers filling, and the end),"
                + " before a %s of %.1f ms: every release waited both",
            b.clock() ? "clock" : "hold",
            b.plainValue());
    return NextWriteInFront.inFront(answer, asItIsFirst, TriggerKind.ENCODER, chain, verdict, null);
  }

  /**
   * What the accepting cells' median waits show beyond a hold of {@code holdMs}: the timer of a
   * compressor beside it; null when no held cell says.
   */
  private static Double beyondTheHold(List<CellEvidence> acceptingCells, double holdMs) {
    double[] beyond =
        HoldingStageFits.fittable(acceptingCells).stream()
            .filter(c -> c.held() && !c.drained() && c.releasesPerStream() > 0)
            .mapToDouble(c -> c.waitP50() - holdMs)
            .sorted()
            .toArray();
    if (beyond.length == 0) return null;
    double timer = beyond[beyond.length / 2];
    return timer < 1 ? null : timer;
  }

  /** The stages a compressor flushing one write late can follow. */
  private static final Set<TriggerKind> HOLDING =
      EnumSet.of(TriggerKind.BYTE_THRESHOLD, TriggerKind.TIMER, TriggerKind.PERIODIC_TIMER);

  /**
   * {@code others} as what clients that do not accept the coding saw, beside the compressor the
   * others did; null without a model.
   */
  private static TwoStageCandidate joined(
      FlushTrigger answer, FlushTrigger others, boolean asItIsFirst, String heldOnly) {
    CompressionFinding f = answer.compression();
    CompressionFinding both =
        CompressionFinding.of(
            f.coding(), f.acceptingClient(), f.accepting(), f.othersClient(), others, heldOnly);
    FlushTrigger joined = (asItIsFirst ? others : answer).withCompression(both);
    String chain = ShaperModel.of(joined).chain();
    return chain == null ? null : new TwoStageCandidate(chain, joined);
  }
}
