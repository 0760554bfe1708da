package flushlab.map;

import flushlab.core.Named;
import flushlab.relay.shaper.ByteThreshold;
import flushlab.relay.shaper.Cork;
import flushlab.relay.shaper.FirstContent;
import flushlab.relay.shaper.IdleTimeout;
import flushlab.relay.shaper.Nagle;
import flushlab.relay.shaper.Param;
import flushlab.relay.shaper.ShaperRegistry;
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
   * the chain the kernel makes of it. Nagle is an option on the client socket, set when the relay
   * wires it, so where it stands in a chain does not matter (it is put last) and two are one; a
   * cork on that socket holds every partial segment whatever Nagle would do (Linux checks the cork
   * first), so Nagle beside a cork is no stage. A stage right after one with the same values does
   * nothing more when it is a cork (a switch on the socket) or a first-content hold (the content it
   * waits for comes together with all it held), and so does a byte threshold right after one at
   * least as large (every write it gets already fills it, and it does not split them); of two idle
   * timeouts side by side, which see the same bytes move, the shorter is the one that cuts.
   */
  static List<ShaperRegistry.Spec> asAClientSeesIt(List<ShaperRegistry.Spec> chain) {
    boolean corked = chain.stream().anyMatch(s -> s.type() == Cork.TYPE);
    ShaperRegistry.Spec nagle = null;
    List<ShaperRegistry.Spec> kept = new ArrayList<>();
    for (ShaperRegistry.Spec s : chain) {
      if (s.type() == Nagle.TYPE) {
        nagle = s;
        continue;
      }
      ShaperRegistry.Spec before = kept.isEmpty() ? null : kept.get(kept.size() - 1);
      boolean once = s.type() == Cork.TYPE || s.type() == FirstContent.TYPE;
      if (once && before != null && before.type() == s.type() && before.values().equals(s.values()))
        continue;
      if (before != null && withinTheThresholdBefore(before, s)) continue;
      if (before != null && before.type() == IdleTimeout.TYPE && s.type() == IdleTimeout.TYPE) {
        // two idle timeouts side by side see the same bytes move: the shorter one cuts first
        if (after(s) < after(before)) kept.set(kept.size() - 1, s);
        continue;
      }
      kept.add(s);
    }
    if (nagle != null && !corked) kept.add(nagle);
    return kept;
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

  private String chainDifference(String modelChain) {
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
