package flushlab.map;

import java.util.List;
import java.util.Locale;

/**
 * A map answer as a chain of the lab's own shapers, in the syntax `--shape` takes ({@code
 * byte-threshold=2048B}, stages joined by {@code " -> "}): a relay that should do what the target
 * did. Null {@code chain} when no built-in relay does it, and {@code note} says why. The chain is
 * what the answer claims, not yet checked by replaying it against the target's cells.
 *
 * @param chain the shapers, in order, or null
 * @param note why there is no chain, or null when there is one
 * @param alike other chains that do to every cell the map measures what {@code chain} does, within
 *     what the replay allows (the same stages in another order, or a compressor's flush that only
 *     delays a threshold's releases one interval), so no measurement tells them apart; empty for
 *     most
 */
public record ShaperModel(String chain, String note, List<String> alike) {

  public ShaperModel {
    alike = alike == null ? List.of() : List.copyOf(alike);
  }

  public ShaperModel(String chain, String note) {
    this(chain, note, List.of());
  }

  static ShaperModel of(String chain) {
    return new ShaperModel(chain, null);
  }

  public static ShaperModel none(String why) {
    return new ShaperModel(null, why);
  }

  /**
   * The model of a whole answer: for a target that compressed for clients that accept it, the
   * compressor (and its flush policy, from that client's answer), which leaves other clients'
   * streams as they are; otherwise the one mechanism named. A silent stream the target cut adds its
   * idle stage ({@link IdleCut#appliedTo}).
   */
  public static ShaperModel of(FlushTrigger t) {
    ShaperModel m = withoutIdle(t);
    return t.idle() == null ? m : t.idle().appliedTo(m);
  }

  private static ShaperModel withoutIdle(FlushTrigger t) {
    if (t.replay() != null && t.kind() == TriggerKind.INCONCLUSIVE)
      return none("the model was not verified: " + t.replay().replaceFirst("^not verified: ", ""));
    CompressionFinding c = t.compression();
    if (c == null || c.coding() == null) return uncompressed(t);
    if (c.accepting() == null || c.others() == null)
      return none("one of the two kinds of client was not measured (budget)");
    // a model of both stages the accepting client saw, compressor included, carries its chain
    if (c.accepting().stages() != null) return of(c.accepting().stages());
    if (c.others().kind() == TriggerKind.INCONCLUSIVE) {
      return none(
          "the pass as a client that does not accept "
              + c.coding()
              + " was inconclusive, so what the compressor alone does is not known");
    }
    if (decodedOnDelivery(c.accepting(), c.others())) {
      ShaperModel compressor = compressor(c.coding(), c.accepting());
      return compressor.chain() == null ? compressor : of(compressor.chain() + ",others=decoded");
    }
    if (c.others().kind() != TriggerKind.NONE)
      return holdAndCompressor(c.coding(), c.accepting(), c.others());
    return compressor(c.coding(), c.accepting());
  }

  /**
   * A target that held the stream for clients that do not accept {@code coding} as well ({@code
   * others}) and compressed it for those that do: two stages. Where both kinds of client saw the
   * same mechanism, the compressor flushed every write and the holding stage did the rest: before
   * the compressor when a threshold counted bytes before compression ({@code byte-threshold=N ->
   * compress=...,flush=each}), after it when the threshold counted what the compressor wrote, and
   * for a mechanism that counts no bytes (a timer, one-late, a cork) either way alike, both named.
   * Otherwise the holding stage comes first and the compressor flushes as the accepting client's
   * answer says; the replay (the map's, unless --no-verify) is what checks it.
   */
  static ShaperModel holdAndCompressor(String coding, FlushTrigger accepting, FlushTrigger others) {
    ShaperModel hold = single(others);
    if (hold.chain() == null) {
      return none(
          "the target holds the stream for clients that do not accept "
              + coding
              + " too, as "
              + others.kind().text()
              + ", and "
              + hold.note());
    }
    String algo = coding.toLowerCase(Locale.ROOT);
    if (!compressible(algo))
      return none("the target's coding " + coding + " is not one the lab compresses with");
    String each = "compress=" + algo + ",flush=each";
    String nagle = others.then() == TriggerKind.NAGLE ? " -> nagle" : "";
    // a decoded threshold counts event bytes, a byte threshold wire bytes: compared as event bytes.
    // On the wire, chunk
    // framing adds 6 B to each 60 B event, which alone puts the two 9 % apart: a measured span
    // either way took them past
    // 10 %, and the pair was modelled as two thresholds, which its replay refused
    // (`byte-threshold=1252B ->
    // compress=gzip,flush=each` as a browser: `byte-threshold=1238B ->
    // compress=gzip,flush=input,bytes=1110B`, 5 of 7 cells)
    Double othersEvents =
        others.thresholdBodyBytes() != null ? others.thresholdBodyBytes() : others.thresholdBytes();
    if (accepting.kind() == TriggerKind.DECODED_THRESHOLD
        && others.kind() == TriggerKind.BYTE_THRESHOLD
        && within10Percent(accepting.thresholdBytes(), othersEvents)) {
      return of(hold.chain() + " -> " + each + nagle);
    }
    // the accepting client saw the others' stage one release late: a compressor behind it that
    // flushes each write only when the next one comes
    if (accepting.then() == TriggerKind.ONE_LATE
        && accepting.kind() == others.kind()
        && sameParameters(accepting, others)) {
      return of(hold.chain() + " -> compress=" + algo + ",flush=next" + nagle);
    }
    if (sameMechanism(accepting, others)) {
      String compressedFirst = each + " -> " + hold.chain() + nagle;
      if (others.kind() == TriggerKind.BYTE_THRESHOLD
          && accepting.thresholdBytes() != null
          && accepting.thresholdBytes() >= NEXT_ALIKE_BYTES) {
        // a compressor that flushes each write only when the next one comes hands the threshold
        // every event one write late, so each release leaves one interval later: a threshold
        // gathering dozens of the lab's compressed events hides that in every wait (`compress=
        // gzip,flush=next -> byte-threshold=3052B` was answered with flush=each, verified 8 of 8,
        // as an "other model": a browser chain bench, 2026-12-06)
        String late = "compress=" + algo + ",flush=next -> " + hold.chain() + nagle;
        return new ShaperModel(compressedFirst, null, List.of(late));
      }
      if (countsBytes(others.kind())) return of(compressedFirst);
      // first-content reads the events' own bytes: behind the compressor it cannot, and holds the
      // body to its end (below), so where both clients saw it, it stands in front (`first-
      // content=any -> compress=gzip,flush=each` was modelled the other way and refused for holding
      // 200 frames to their end: a chain bench, seed 20261226)
      if (others.kind() == TriggerKind.FIRST_CONTENT)
        return of(hold.chain() + " -> " + each + nagle);
      return new ShaperModel(compressedFirst, null, List.of(hold.chain() + " -> " + each + nagle));
    }
    ShaperModel compressor = compressor(coding, accepting);
    if (compressor.chain() == null) return compressor;
    String model = hold.chain() + " -> " + compressor.chain() + nagle;
    // the cork is the client socket's option for the whole response, wherever the chain names it
    if (others.kind() == TriggerKind.CORK)
      return new ShaperModel(model, null, List.of(compressor.chain() + " -> cork" + nagle));
    // a first-content hold behind a compressor cannot read what it compressed and holds the body
    // to its end, whatever the compressor's flushes (ModelExpectation#asAClientSeesIt): named
    // with the compressor's commonest flush
    if (others.kind() == TriggerKind.FIRST_CONTENT && accepting.kind() == TriggerKind.DRAIN)
      return new ShaperModel(model, null, List.of(each + " -> " + hold.chain() + nagle));
    return of(model);
  }

  /**
   * Clients that do not accept the coding saw what only a compressor does (an encoder's holding, a
   * threshold of decoded bytes), as the accepting ones did: the same compressed stream, decoded on
   * delivery for them.
   */
  private static boolean decodedOnDelivery(FlushTrigger accepting, FlushTrigger others) {
    boolean compressorOnly =
        others.kind() == TriggerKind.ENCODER || others.kind() == TriggerKind.DECODED_THRESHOLD;
    return compressorOnly && accepting.kind() == others.kind() && sameParameters(accepting, others);
  }

  /** A coding the lab's `compress` shaper writes. */
  static boolean compressible(String algo) {
    return algo.matches("gzip|deflate|br|zstd");
  }

  /**
   * A threshold of compressed bytes this large gathers a dozen of the lab's events or more (they
   * compress to 16-40 B, 60 B and 4 KiB alike, as maps measured them), so one interval more on a
   * release's wait is within what the replay allows (15 %, or 5 ms where frames come every 2 ms).
   */
  static final double NEXT_ALIKE_BYTES = 512;

  private static boolean countsBytes(TriggerKind k) {
    return k == TriggerKind.BYTE_THRESHOLD
        || k == TriggerKind.SPLIT_BUFFER
        || k == TriggerKind.THRESHOLD_OR_TIMER
        || k == TriggerKind.WINDOW;
  }

  /**
   * One stage seen by both kinds of client: the same kind, its numbers within 10 %; or a cork,
   * which a compressed stream too small to fill a segment sees only as its ceiling, a hold timer of
   * the same length (`cork -> compress=gzip,flush=each` read as a timer of 211.6 ms by a browser
   * and a cork of 209.8 ms by curl).
   */
  private static boolean sameMechanism(FlushTrigger accepting, FlushTrigger others) {
    if (others.kind() == TriggerKind.CORK && accepting.kind() == TriggerKind.TIMER)
      return within10Percent(accepting.timerMs(), others.timerMs());
    return accepting.kind() == others.kind() && sameParameters(accepting, others);
  }

  /** The two answers' numbers agree within 10 %. */
  private static boolean sameParameters(FlushTrigger a, FlushTrigger b) {
    return within10Percent(a.thresholdBytes(), b.thresholdBytes())
        && within10Percent(a.timerMs(), b.timerMs());
  }

  /** Two of an answer's numbers (bytes or ms) agree within 10 %; two absent ones agree too. */
  private static boolean within10Percent(Double a, Double b) {
    if (a == null || b == null) return a == b;
    return Math.abs(a - b) <= 0.1 * Math.max(Math.abs(a), Math.abs(b));
  }

  /**
   * The shapers that do what a target did to a stream it sent as it came: its mechanism, then
   * Nagle's where one followed it (a socket option, so the chain written with it first is alike),
   * one-late, or first-content, which does the same on either side of a stage that lets what it
   * holds go on its own clock (both orders are named).
   */
  static ShaperModel uncompressed(FlushTrigger t) {
    if (t.stages() != null) return of(t.stages());
    ShaperModel first = single(t);
    if (first.chain() == null) return first;
    if (t.then() == null && t.before() == null && writesTooFarApartForNagle(t))
      return new ShaperModel(first.chain(), null, List.of(first.chain() + " -> nagle"));
    // first-content in front of a threshold lets the first frame go with the held comments at once;
    // behind it, the frame
    // waits for the threshold, unless the comments had nearly filled it (a suite run: 2.9 ms behind
    // a 2208 B threshold):
    // a first frame at once names the front, and the other order alike
    if (t.before() == TriggerKind.FIRST_CONTENT) {
      return new ShaperModel(
          "first-content=any -> " + first.chain(),
          null,
          List.of(first.chain() + " -> first-content=any"));
    }
    // Nagle is the client socket's option wherever the chain names it: written first, it runs the
    // same relay
    if (t.then() == TriggerKind.NAGLE)
      return new ShaperModel(
          first.chain() + " -> nagle", null, List.of("nagle -> " + first.chain()));
    // one-late after a holding stage delays each release by the next one's gap; before it, by one
    // interval: not alike
    if (t.then() == TriggerKind.ONE_LATE) return of(first.chain() + " -> one-late");
    // the cork, like Nagle, is the client socket's option for the whole response, wherever the
    // chain names it
    if (t.then() == TriggerKind.CORK)
      return new ShaperModel(first.chain() + " -> cork", null, List.of("cork -> " + first.chain()));
    // two holding stages in series (HoldingPairFit): one counts bytes, the other time, so the
    // answer holds both values
    if (t.then() == TriggerKind.BYTE_THRESHOLD)
      return of(first.chain() + " -> byte-threshold=" + bytes(t.thresholdBytes()));
    if (t.then() == TriggerKind.TIMER) return of(first.chain() + " -> timer=" + ms(t.timerMs()));
    if (t.then() == TriggerKind.PERIODIC_TIMER)
      return of(first.chain() + " -> timer=" + ms(t.timerMs()) + ",periodic=true");
    if (t.then() == TriggerKind.FIRST_CONTENT) {
      // behind a threshold the first frame waited in it, where first-content in front lets it go
      // with the comments: not alike
      if (t.kind() == TriggerKind.BYTE_THRESHOLD)
        return of(first.chain() + " -> first-content=any");
      return new ShaperModel(
          first.chain() + " -> first-content=any",
          null,
          List.of("first-content=any -> " + first.chain()));
    }
    return first;
  }

  /**
   * A timer that writes no oftener than the client's delayed ACK (40 ms at the least on Linux):
   * each write finds the one before it acknowledged, so Nagle on the socket, which waits only for
   * an ACK, never holds one, and a model with Nagle after the timer releases alike (`nagle ->
   * timer=83ms,periodic=true` and `timer=84ms,periodic=true -> nagle` were answered by the timer
   * alone, verified, as other models by chain benches; `timer=40ms`, `timer=60ms,periodic=true` and
   * `timer=250ms` each with Nagle were answered by the timer alone, verified 5 of 5 cells: flushlab
   * map, 2026-12-06).
   */
  private static boolean writesTooFarApartForNagle(FlushTrigger t) {
    return (t.kind() == TriggerKind.TIMER || t.kind() == TriggerKind.PERIODIC_TIMER)
        && t.timerMs() != null
        && t.timerMs() >= Replay.DELAYED_ACK_MIN_MS;
  }

  /** The shaper of the one mechanism {@code t.kind()} names. */
  static ShaperModel single(FlushTrigger t) {
    switch (t.kind()) {
      case NONE:
        return of("passthrough");
      case DRAIN:
        return of("drain-and-flush");
      case BYTE_THRESHOLD:
        return of("byte-threshold=" + bytes(t.thresholdBytes()));
      case SPLIT_BUFFER:
        return of("byte-threshold=" + bytes(t.thresholdBytes()) + ",split=true");
      case TIMER:
        return of("timer=" + ms(t.timerMs()));
      case PERIODIC_TIMER:
        return of("timer=" + ms(t.timerMs()) + ",periodic=true");
      case THRESHOLD_OR_TIMER:
        return of(
            "threshold-or-timer,bytes=" + bytes(t.thresholdBytes()) + ",after=" + ms(t.timerMs()));
      case CORK:
        return of("cork");
      case ONE_LATE:
        return of("one-late");
      case NAGLE:
        return of("nagle");
      // the map's think cell sends plain SSE: what is held is everything before the first data
      // event
      case FIRST_CONTENT:
        return of("first-content=any");
      case WINDOW:
        return of("window=" + bytes(t.thresholdBytes()) + ",update=timer,after=" + ms(t.timerMs()));
      case EVENT_COUNT:
        return none(
            "an event count is recognised, not modelled: no built-in relay releases every K events");
      case ENCODER:
        return none(
            "an encoder's holding needs a compressing target, and this answer came without a coding");
      case DECODED_THRESHOLD:
        return none(
            "a threshold of decoded bytes needs a compressing target, and this answer came without a coding");
      case INCONCLUSIVE:
        return none("the answer is inconclusive");
      default:
        return none("no built-in relay is known for " + t.kind().text());
    }
  }

  /**
   * A compressor for clients that accept {@code coding}, flushed as {@code accepting} (that
   * client's answer, in compressed bytes) says.
   */
  static ShaperModel compressor(String coding, FlushTrigger accepting) {
    String algo = coding.toLowerCase(Locale.ROOT);
    if (!compressible(algo))
      return none("the target's coding " + coding + " is not one the lab compresses with");
    String head = "compress=" + algo;
    switch (accepting.kind()) {
      case NONE:
        return of(head + ",flush=each");
      case ENCODER:
        return of(head + ",flush=none");
      case BYTE_THRESHOLD:
        return of(head + ",flush=bytes,bytes=" + bytes(accepting.thresholdBytes()));
      case TIMER:
        return of(head + ",flush=timer,after=" + ms(accepting.timerMs()));
      case DECODED_THRESHOLD:
        return of(head + ",flush=input,bytes=" + bytes(accepting.thresholdBytes()));
      case ONE_LATE:
        return of(head + ",flush=next");
      // the whole compressed body at its end, for these clients only (the others' pass streamed or
      // held on its own)
      case DRAIN:
        return of(head + ",flush=end");
      // no mechanism, so no flush policy to name: the answer says why, and which models were tried
      case INCONCLUSIVE:
        return none(
            "clients that accept "
                + coding
                + " saw what no one mechanism explains, so how the compressor flushes is not known");
      default:
        return none(
            "clients that accept "
                + coding
                + " see "
                + accepting.kind().text()
                + ", which no compressor flush policy of "
                + "the lab's does yet");
    }
  }

  private static String bytes(Double b) {
    return Math.round(b) + "B";
  }

  /** To a tenth of a millisecond, as the answer gives it (the shaper parses decimals). */
  static String ms(double t) {
    double r = Math.round(t * 10) / 10.0;
    return (r == Math.rint(r) ? String.valueOf((long) r) : String.valueOf(r)) + "ms";
  }
}
