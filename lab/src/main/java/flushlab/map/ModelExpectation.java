package flushlab.map;

import flushlab.core.Named;
import flushlab.relay.shaper.ByteThreshold;
import flushlab.relay.shaper.Compress;
import flushlab.relay.shaper.Cork;
import flushlab.relay.shaper.FirstContent;
import flushlab.relay.shaper.IdleTimeout;
import flushlab.relay.shaper.Nagle;
import flushlab.relay.shaper.Param;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.relay.shaper.TimerFlush;
import java.util.ArrayList;
import java.util.List;

/**
 * What `flushlab map --expect` asks the answer to be, for a CI pipeline that fails when a proxy's
 * buffering changes: a kind ({@code none}, {@code byte-threshold}, ...), or a model in `--shape`
 * syntax whose stages and whose given parameters the answer's model must match, numbers within a
 * tolerance ({@code byte-threshold=4KiB} is met by {@code byte-threshold=4079B} at 10 %).
 */
public final class ModelExpectation {
  private final String text;
  private final TriggerKind kind;
  private final List<ShaperRegistry.Spec> chain;
  private final double tolerance;

  private ModelExpectation(
      String text, TriggerKind kind, List<ShaperRegistry.Spec> chain, double tolerance) {
    this.text = text;
    this.kind = kind;
    this.chain = chain;
    this.tolerance = tolerance;
  }

  /**
   * A kind's name, else a model; {@code tolerance} a fraction (0.1 for 10 %). Throws, naming what
   * is valid, when the text is neither.
   */
  public static ModelExpectation parse(String text, double tolerance) {
    TriggerKind k = Named.parse(TriggerKind.class, text);
    if (k != null) return new ModelExpectation(text.trim(), k, null, tolerance);
    try {
      return new ModelExpectation(
          text.trim(), null, asAClientSeesIt(ShaperRegistry.parseChain(text)), tolerance);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is neither an answer's kind ("
              + String.join(", ", Named.texts(TriggerKind.class))
              + ") nor a model as --shape takes it ("
              + e.getMessage()
              + ")");
    }
  }

  /**
   * What was expected, with the tolerance when numbers are compared: "byte-threshold=4KiB (within
   * 10 %)".
   */
  public String describe() {
    return chain == null
        ? text
        : String.format("%s (numbers within %.0f %%)", text, tolerance * 100);
  }

  /** Null when {@code answer} is what was expected; otherwise what differs, in one sentence. */
  public String difference(FlushTrigger answer) {
    if (kind != null) {
      return answer.kind() == kind
          ? null
          : "the answer is "
              + answer.kind().text()
              + ", not "
              + kind.text()
              + " ("
              + answer.verdict()
              + ")";
    }
    ShaperModel model = ShaperModel.of(answer);
    if (model.chain() == null)
      return "the answer (" + answer.kind().text() + ") has no model: " + model.note();
    String d = chainDifference(model.chain());
    if (d == null) return null;
    // a model no measurement tells apart from the one given (ShaperModel#alike)
    // meets it as well
    for (String other : model.alike()) if (chainDifference(other) == null) return null;
    return d
        + (model.alike().isEmpty()
            ? ""
            : " (nor is "
                + String.join(" or ", model.alike())
                + ", which it cannot be told apart from)");
  }

  /**
   * The chain without the stages that cannot change what a client reads, so that a model is met by
   * the chain the kernel and the relay make of it. Nagle and the cork are options on the client
   * socket, set when the relay wires it or for the whole response, so where they stand in a chain
   * does not matter (they are put last) and two of one are one; a cork on that socket holds every
   * partial segment whatever Nagle would do (Linux checks the cork first), so Nagle beside a cork
   * is no stage. A first-content hold right after one with the same values does nothing more (the
   * content it waits for comes together with all it held), and neither does a byte threshold right
   * after one at least as large (every write it gets already fills it, and it does not split them),
   * nor a hold timer right after one at least as long (a stage counts its hold from the held byte's
   * arrival at the relay, and every release it gets carries a byte that old); of two idle timeouts
   * side by side, which see the same bytes move, the shorter is the one that cuts. A compressor
   * after one that compresses every event stream passes on what it gets ({@link
   * #passesWhatItGets}). A first-content hold behind a compressor cannot read the compressed
   * events, so it holds a compressed body to its end, whatever the compressor's flushes: the pair
   * is first-content in front of that compressor flushed only at the end.
   */
  static List<ShaperRegistry.Spec> asAClientSeesIt(List<ShaperRegistry.Spec> chain) {
    ShaperRegistry.Spec cork = null;
    ShaperRegistry.Spec nagle = null;
    List<ShaperRegistry.Spec> kept = new ArrayList<>();
    for (ShaperRegistry.Spec s : chain) {
      if (s.type() == Nagle.TYPE) {
        nagle = s;
        continue;
      }
      if (s.type() == Cork.TYPE) {
        cork = s;
        continue;
      }
      ShaperRegistry.Spec before = kept.isEmpty() ? null : kept.get(kept.size() - 1);
      if (before != null
          && s.type() == FirstContent.TYPE
          && before.type() == s.type()
          && before.values().equals(s.values())) continue;
      if (before != null && (withinTheThresholdBefore(before, s) || withinTheHoldBefore(before, s)))
        continue;
      if (before != null && before.type() == IdleTimeout.TYPE && s.type() == IdleTimeout.TYPE) {
        // two idle timeouts side by side see the same bytes move: the shorter one cuts first
        if (after(s) < after(before)) kept.set(kept.size() - 1, s);
        continue;
      }
      if (before != null && passesWhatItGets(before, s)) continue;
      if (before != null && s.type() == FirstContent.TYPE && compressesEverything(before)) {
        kept.set(kept.size() - 1, s);
        kept.add(flushedAtTheEnd(before));
        continue;
      }
      kept.add(s);
    }
    if (cork != null) kept.add(cork);
    else if (nagle != null) kept.add(nagle);
    return kept;
  }

  /**
   * A compressor right after one that compresses every event stream: a client that accepts a coding
   * gets a body already encoded through it, and one that does not, a body it would not encode
   * either, and it passes each on as it came (two compressors in series were answered as the first
   * alone, verified: a chain bench, 2026-12-06). Not one that compresses for other clients too
   * (others=decoded) or picks its own types.
   */
  private static boolean passesWhatItGets(ShaperRegistry.Spec before, ShaperRegistry.Spec s) {
    return s.type() == Compress.TYPE
        && compressesEverything(before)
        && !before.given().contains(Compress.TYPES.key())
        && !s.given().contains(Compress.TYPES.key())
        && !s.given().contains(Compress.OTHERS.key());
  }

  /**
   * A compressor whose output no later stage can read: it compresses event streams whatever their
   * length.
   */
  private static boolean compressesEverything(ShaperRegistry.Spec s) {
    return s.type() == Compress.TYPE && !s.given().contains(Compress.MIN_LENGTH.key());
  }

  /** {@code compressor} with its coding and what other clients get, flushed only at the end. */
  private static ShaperRegistry.Spec flushedAtTheEnd(ShaperRegistry.Spec compressor) {
    ShaperRegistry.Builder b =
        ShaperRegistry.build(Compress.TYPE)
            .set(Compress.ALGO, compressor.values().get(Compress.ALGO.key()))
            .set(Compress.FLUSH, Compress.Flush.END.ordinal());
    if (compressor.given().contains(Compress.OTHERS.key()))
      b.set(Compress.OTHERS, compressor.values().get(Compress.OTHERS.key()));
    if (compressor.given().contains(Compress.TYPES.key()))
      b.set(Compress.TYPES, compressor.values().get(Compress.TYPES.key()));
    return b.spec();
  }

  private static boolean withinTheHoldBefore(ShaperRegistry.Spec before, ShaperRegistry.Spec s) {
    return before.type() == TimerFlush.TYPE
        && s.type() == TimerFlush.TYPE
        && before.values().get(TimerFlush.PERIODIC.key()) == 0
        && s.values().get(TimerFlush.PERIODIC.key()) == 0
        && s.values().get(TimerFlush.AFTER.key()) <= before.values().get(TimerFlush.AFTER.key());
  }

  private static long after(ShaperRegistry.Spec idle) {
    return idle.values().get(IdleTimeout.AFTER.key());
  }

  private static boolean withinTheThresholdBefore(
      ShaperRegistry.Spec before, ShaperRegistry.Spec s) {
    return before.type() == ByteThreshold.TYPE
        && s.type() == ByteThreshold.TYPE
        && s.values().get(ByteThreshold.SPLIT.key()) == 0
        && s.values().get(ByteThreshold.BYTES.key())
            <= before.values().get(ByteThreshold.BYTES.key());
  }

  String chainDifference(String modelChain) {
    List<ShaperRegistry.Spec> got = asAClientSeesIt(ShaperRegistry.parseChain(modelChain));
    if (got.size() != chain.size())
      return "the answer's model is "
          + modelChain
          + ": "
          + got.size()
          + " stage(s), not "
          + chain.size();
    for (int i = 0; i < chain.size(); i++) {
      String d = stageDifference(chain.get(i), got.get(i));
      if (d != null)
        return "the answer's model is "
            + modelChain
            + (chain.size() > 1 ? "; stage " + (i + 1) : "")
            + ": "
            + d;
    }
    return null;
  }

  private String stageDifference(ShaperRegistry.Spec want, ShaperRegistry.Spec got) {
    if (want.type() != got.type()) return got.type().name() + ", not " + want.type().name();
    for (String key : want.given()) {
      Param p = want.type().param(key);
      long w = want.values().get(key);
      Long g = got.values().get(key);
      if (g == null) return key + " is not set, expected " + p.format(w);
      boolean number =
          p.kind() == Param.Kind.DURATION
              || p.kind() == Param.Kind.SIZE
              || p.kind() == Param.Kind.RATE;
      boolean same = number ? Math.abs(g - w) <= tolerance * Math.abs(w) : g == w;
      if (!same)
        return key
            + "="
            + p.format(g)
            + ", expected "
            + p.format(w)
            + (number ? String.format(" within %.0f %%", tolerance * 100) : "");
    }
    return null;
  }
}
