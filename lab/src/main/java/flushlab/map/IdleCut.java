package flushlab.map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import flushlab.relay.shaper.ShaperRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a silent stream showed beside the map's cells: its head, then nothing, for as long as the
 * map measured. A target that closes a connection idle for T (a load balancer's idle timeout) cuts
 * it; the cells, none of which pauses longer than a think of 400 ms, never show that.
 *
 * <p>Where the idle stage sits cannot be told from one cut: a stage in front of everything counts
 * its silence from the head the emitter wrote (at the request, give or take the direct path), one
 * behind a stage that held the head counts it from when that stage let the head go (when the client
 * read it, unless a socket option held it on the way). The model puts the stage first, with the
 * silence from the request, which reproduces the cut whatever held the head after it; the other
 * order, with the silence from the head, is named alike.
 *
 * @param watchedMs how long the stream was watched, from its request: its silence, when it was not
 *     cut
 * @param cutMs from the request to the cut, or null when the stream was not cut (or failed
 *     otherwise)
 * @param headMs from the request to the response head, or null when none came before the cut
 * @param failed why the stream said nothing of an idle timeout (it failed before the silence: an
 *     error status, a refused connection), or null
 * @param leftOut why a cut is not in the model (it came too late in the map to be replayed), or
 *     null
 */
public record IdleCut(
    double watchedMs, Double cutMs, Double headMs, String failed, String leftOut) {

  public IdleCut(double watchedMs, Double cutMs, Double headMs, String failed) {
    this(watchedMs, cutMs, headMs, failed, null);
  }

  /** The same cut, said in the evidence but not put in the model, for {@code why}. */
  public IdleCut leftOutOfTheModel(String why) {
    return new IdleCut(watchedMs, cutMs, headMs, failed, why);
  }

  /** The silent stream's name where it is compared as one more cell. */
  public static final String LABEL = "silent stream";

  /**
   * A head read less than this before the cut came with it (the stage that held it let it go when
   * upstream closed).
   */
  static final double HEAD_WITH_THE_CUT_MS = 10;

  /**
   * How far a model's cut may lie from the target's: the larger of this share and {@link
   * #AGREE_FLOOR_MS}.
   */
  static final double AGREE_SHARE = 0.05;

  static final double AGREE_FLOOR_MS = 50;

  public static IdleCut notCut(double watchedMs, Double headMs) {
    return new IdleCut(watchedMs, null, headMs, null);
  }

  public static IdleCut cut(double cutMs, Double headMs) {
    return new IdleCut(cutMs, cutMs, headMs, null);
  }

  public static IdleCut failed(double watchedMs, String why) {
    return new IdleCut(watchedMs, null, null, why);
  }

  @JsonIgnore
  public boolean isCut() {
    return cutMs != null;
  }

  /**
   * Whether a head came well before the cut: something held it, and a stage behind that counts its
   * silence from it.
   */
  boolean headBeforeTheCut() {
    return headMs != null && cutMs != null && cutMs - headMs >= HEAD_WITH_THE_CUT_MS;
  }

  /** The evidence line: cut or not, after how long. */
  public String describe() {
    if (failed != null)
      return "silent stream: it failed before its silence said anything ("
          + failed
          + "); no idle timeout inferred";
    if (!isCut()) {
      return String.format(
          Locale.ROOT,
          "silent stream: not cut in %.1f s of silence (an idle timeout, if any, is longer; `flushlab probe "
              + "idle` finds one)",
          watchedMs / 1000);
    }
    String head =
        headMs == null
            ? "no response head before it"
            : headBeforeTheCut()
                ? String.format(Locale.ROOT, "its head read %.0f ms after the request", headMs)
                : "its head read with the cut";
    return String.format(
            Locale.ROOT,
            "silent stream: cut %.0f ms after its request (%s): an idle timeout",
            cutMs,
            head)
        + (leftOut == null ? "" : "; not in the model: " + leftOut);
  }

  /** The sentence the verdict ends with, for a stream that was cut; null otherwise. */
  public String verdictNote() {
    return isCut()
        ? String.format(
            Locale.ROOT,
            "a connection silent for %.1f s was cut (an idle timeout)",
            stageMs() / 1000)
        : null;
  }

  /**
   * The idle stage's timeout with the stage in front of everything: the silence from the request.
   */
  double stageMs() {
    return cutMs;
  }

  /**
   * {@code m} with the idle stage: first, its silence from the request; the other order (after the
   * stages, before the socket's options, its silence from the head) named alike, with each of
   * {@code m}'s alike chains too. A model with no chain stays as it is; passthrough becomes the
   * idle stage alone.
   */
  public ShaperModel appliedTo(ShaperModel m) {
    if (!isCut() || leftOut != null || m.chain() == null) return m;
    String front = "idle-timeout=" + ShaperModel.ms(stageMs());
    if (m.chain().equals("passthrough")) return ShaperModel.of(front);
    String chain = front + " -> " + m.chain();
    List<String> alike = new ArrayList<>();
    List<String> others = new ArrayList<>(List.of(m.chain()));
    others.addAll(m.alike());
    for (String other : others) {
      if (!other.equals(m.chain())) alike.add(front + " -> " + other);
      String b = behind(other);
      if (b != null && !b.equals(chain) && !alike.contains(b)) alike.add(b);
    }
    return new ShaperModel(chain, null, alike);
  }

  /**
   * {@code chain} (a model's) with the idle stage first, as {@link #appliedTo(ShaperModel)} gives
   * it.
   */
  public String appliedTo(String chain) {
    return appliedTo(ShaperModel.of(chain)).chain();
  }

  /**
   * The chain with the idle stage last, counting its silence from when the head left the stages
   * before it: the client's read of it, where no socket option delayed it. The socket's options
   * (Nagle, the cork) act wherever the chain names them, so only the stages that hold bytes count:
   * none of them, or none that let the head go before the cut, and the stage saw nothing since the
   * request either. A cork holds a head on its way out, so when a stage before it let the head go
   * is not known; then no chain.
   */
  private String behind(String chain) {
    List<String> stages = List.of(chain.split(" -> "));
    boolean holding = stages.stream().anyMatch(st -> !isSocketOption(st));
    boolean corked = stages.stream().anyMatch(st -> st.startsWith("cork"));
    double silence;
    if (!holding || !headBeforeTheCut()) {
      silence = stageMs();
    } else if (corked) {
      return null;
    } else {
      silence = cutMs - headMs;
    }
    return chain + " -> idle-timeout=" + ShaperModel.ms(silence);
  }

  private static boolean isSocketOption(String stage) {
    String name = ShaperRegistry.parseChain(stage).get(0).type().name();
    return name.equals("nagle") || name.equals("cork");
  }

  /**
   * Null when the model's silent stream was cut as the target's was (within 5 % or 50 ms);
   * otherwise what differs. Both are cut, or neither within what both watched.
   */
  public static String difference(IdleCut target, IdleCut model) {
    if (model.failed() != null)
      return "the silent stream failed on the model (" + model.failed() + ")";
    if (!target.isCut()) {
      return model.isCut() && model.cutMs() <= target.watchedMs()
          ? String.format(
              Locale.ROOT,
              "cut after %.0f ms on the model, not in %.0f ms on the target",
              model.cutMs(),
              target.watchedMs())
          : null;
    }
    if (!model.isCut()) {
      return String.format(
          Locale.ROOT,
          "cut after %.0f ms on the target, not in %.0f ms on the model",
          target.cutMs(),
          model.watchedMs());
    }
    double apart = Math.abs(model.cutMs() - target.cutMs());
    double allowed = Math.max(AGREE_FLOOR_MS, AGREE_SHARE * target.cutMs());
    return apart <= allowed
        ? null
        : String.format(
            Locale.ROOT,
            "cut after %.0f ms on the target, %.0f ms on the model (allowed: %.0f ms)",
            target.cutMs(),
            model.cutMs(),
            allowed);
  }
}
