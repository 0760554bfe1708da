package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.StreamResult;
import flushlab.core.HiccupMeter;
import flushlab.core.HostPort;
import flushlab.core.HostQuiet;
import flushlab.core.StallFigures;
import flushlab.netpath.ServerSites;
import flushlab.targets.RunningTargets;
import flushlab.targets.Target;
import flushlab.targets.TargetContext;
import flushlab.tls.ClientTls;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * `flushlab probe idle`: how long a target lets a stream sit without a byte before it closes it (a
 * load balancer's idle timeout), found with think times: a stream whose first frame comes after a
 * think longer than the timeout is cut. The think doubles from {@link #FIRST_THINK_MS} until a
 * stream is cut, then halves the range between the longest think that passed and the shortest that
 * was cut until it is within {@link #LOCATED} of its top. Then one stream thinks twice the timeout
 * with SSE comment keep-alives every quarter of it: if it passes, comments reset the timer. Each
 * trial fits the budget or is not started; a stream that fails for another reason (an error status,
 * a refused connection) ends the probe inconclusive, never with a number. A cut during which this
 * host stalled is measured once more, once (a stall stops the emitter too, and lengthens the
 * silence); cut so twice, the probe ends inconclusive, naming the stalls. So is a stream that
 * passed a target on this host while this host stalled: the stall held the target's own timer too.
 */
public final class IdleProbe {
  static final double FIRST_THINK_MS = 100;
  static final double LOCATED = 0.02;

  /** What a trial costs beyond its think: connecting, two frames, closing. */
  static final double TRIAL_OVERHEAD_MS = 300;

  /**
   * @param idleTimeoutMs the middle of the range found (null when none was)
   * @param keepAlivesReset whether comments every quarter of the timeout kept a stream of twice it
   *     open (null: not tried)
   */
  public record Answer(
      Double idleTimeoutMs,
      Double passedMs,
      Double cutMs,
      Boolean keepAlivesReset,
      String verdict,
      List<String> trials,
      double seconds) {}

  private final Vertx vertx;
  private final Target target;
  private final HostPort emitterListen;
  private final long deadlineNanos;
  private final long startedNanos = System.nanoTime();
  private final Consumer<String> progress;
  private final List<String> trials = new ArrayList<>();
  private final UnaryOperator<RequestPlan> asClient;

  /**
   * @param asClient makes each request the client's the user asked for (its profile's headers, its
   *     own headers): a proxy may time out one client's stream and not another's
   */
  public IdleProbe(
      Vertx vertx,
      Target target,
      HostPort emitterListen,
      double budgetSeconds,
      UnaryOperator<RequestPlan> asClient,
      Consumer<String> progress) {
    this.asClient = asClient;
    this.vertx = vertx;
    this.target = target;
    this.emitterListen = emitterListen;
    this.deadlineNanos = startedNanos + (long) (budgetSeconds * 1e9);
    this.progress = progress;
  }

  /**
   * One stream's fate after a think; HOST_STALLED: cut twice, each time while this host stalled
   * long enough to explain it.
   */
  enum Fate {
    PASSED,
    CUT,
    FAILED,
    NO_TIME,
    HOST_STALLED
  }

  /**
   * A host stall shorter than this says nothing of a cut: the meter's own floor, above a busy
   * host's scheduling noise.
   */
  static final double STALL_FLOOR_MS = 5;

  /**
   * Whether this host's stalls during a trial could alone have decided it. A cut: they stopped the
   * emitter too, so its silence may have been that much longer than the think ({@code stalledMs} is
   * only what could lengthen a silence, {@link TrialStalls#silenceWindowStart}). A pass, when the
   * target runs on this host (a lab relay, a proxy the lab started): a stall over the think's end
   * held the target's timer too, so it may have fired after the frame that ended the silence (s85:
   * a 500 ms relay let a think of 525 ms pass, and the probe answered 528 ms). A pass through a
   * target elsewhere, or one that sent comments, passed anyway. They count past the precision the
   * probe seeks ({@link #LOCATED} of the think) and the floor.
   */
  static boolean spoiledByHostStall(
      Fate fate, boolean targetOnThisHost, double thinkMs, double stalledMs) {
    boolean couldDecide = fate == Fate.CUT || fate == Fate.PASSED && targetOnThisHost;
    return couldDecide && stalledMs >= Math.max(STALL_FLOOR_MS, LOCATED * thinkMs);
  }

  /**
   * Whether the target listens on this host's loopback (a lab relay, a proxy the lab started): this
   * host's stalls hold its timer too.
   */
  private boolean targetOnThisHost;

  public Answer run() throws Exception {
    try (ServerSites sites =
            ServerSites.open(vertx, emitterListen, List.of(target.path()), progress);
        RunningTargets targets =
            RunningTargets.start(
                List.of(target), t -> new TargetContext(vertx, sites.site(t.path()), progress))) {
      HostPort at = targets.address(target);
      ClientTls tls = targets.tls(target);
      targetOnThisHost = at.isLoopback();
      double passed = 0;
      double cut = Double.NaN;
      double think = FIRST_THINK_MS;
      while (Double.isNaN(cut)) {
        Fate f = trial(at, tls, think, 0);
        if (f == Fate.FAILED)
          return answer(
              null,
              passed,
              null,
              null,
              "inconclusive: a stream failed for another reason than a cut "
                  + "(see the trials); nothing is inferred from it");
        if (f == Fate.HOST_STALLED) return hostStalled(passed, null);
        if (f == Fate.NO_TIME) {
          return answer(
              null,
              passed,
              null,
              null,
              String.format(
                  "none found within the budget: streams that thought %.0f ms passed; "
                      + "give a longer --budget to try longer thinks",
                  passed));
        }
        if (f == Fate.PASSED) {
          passed = think;
          think *= 2;
        } else {
          cut = think;
        }
      }
      while ((cut - passed) / cut > LOCATED) {
        double mid = (passed + cut) / 2;
        Fate f = trial(at, tls, mid, 0);
        if (f == Fate.FAILED)
          return answer(
              null,
              passed,
              cut,
              null,
              "inconclusive: a stream failed for another reason than a cut");
        if (f == Fate.HOST_STALLED) return hostStalled(passed, cut);
        if (f == Fate.NO_TIME) break;
        if (f == Fate.PASSED) {
          passed = mid;
        } else {
          cut = mid;
        }
      }
      double timeout = (passed + cut) / 2;
      Boolean reset = null;
      Fate kept = trial(at, tls, 2 * timeout, timeout / 4);
      if (kept == Fate.PASSED) reset = true;
      if (kept == Fate.CUT) reset = false; // HOST_STALLED: not known, as for the budget
      String keepAlive =
          reset == null
              ? "keep-alive comments not tried (budget)"
              : reset
                  ? String.format(
                      "SSE comments every %.0f ms reset it (a stream thinking %.0f ms with them passed)",
                      timeout / 4, 2 * timeout)
                  : String.format(
                      "SSE comments every %.0f ms do not reset it (a stream thinking %.0f ms with them was cut)",
                      timeout / 4, 2 * timeout);
      return answer(
          timeout,
          passed,
          cut,
          reset,
          String.format(
              "idle timeout: ~%.0f ms (a think of %.0f ms passed, %.0f ms was cut); %s",
              timeout, passed, cut, keepAlive));
    }
  }

  private Answer hostStalled(double passed, Double cut) {
    return answer(
        null,
        passed,
        cut,
        null,
        "inconclusive: this host stalled during a trial and again when it was measured once more "
            + "(see the trials): a stall stops the emitter too and lengthens the silence (and the timer of a target on this host), so those "
            + "trials say nothing of the target; no proxy "
            + "is blamed for it: run it again on a quieter host");
  }

  private Answer answer(Double timeout, double passed, Double cut, Boolean reset, String verdict) {
    return new Answer(
        timeout == null ? null : round1(timeout),
        passed > 0 ? round1(passed) : null,
        cut == null ? null : round1(cut),
        reset,
        verdict,
        List.copyOf(trials),
        Math.round((System.nanoTime() - startedNanos) / 1e7) / 100.0);
  }

  private static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }

  /**
   * A trial, measured once more, once, when it was cut while this host stalled long enough to
   * explain the cut (the rule every measured run follows); cut so twice, HOST_STALLED.
   */
  private Fate trial(HostPort at, ClientTls tls, double thinkMs, double keepAliveMs)
      throws Exception {
    for (int attempt = 0; ; attempt++) {
      long started = System.nanoTime();
      Fate f = once(at, tls, thinkMs, keepAliveMs);
      long ended = System.nanoTime();
      boolean passedHere = f == Fate.PASSED && targetOnThisHost && keepAliveMs == 0;
      TrialStalls counted =
          passedHere
              ? TrialStalls.overThinksEnd(started, ended, thinkMs)
              : TrialStalls.afterSilenceBegan(f == Fate.CUT, started, ended, thinkMs, keepAliveMs);
      if (passedHere) noteLoopStalls(started, ended, thinkMs, counted.ms());
      if (!spoiledByHostStall(f, targetOnThisHost, thinkMs, counted.ms())) return f;
      String line =
          String.format(
              "this host stalled %.0f ms %s (%s): not counted%s",
              counted.ms(),
              passedHere
                  ? "over the think's end while the target, on this host too, timed the silence"
                  : keepAliveMs > 0
                      ? "in all during that trial"
                      : "in all after the think was due to end",
              StallFigures.of(counted.stalls(), started).describe(),
              attempt == 0
                  ? "; measured once more " + HostQuiet.await(HiccupMeter.get()).text()
                  : "");
      trials.add(line);
      progress.accept(line);
      if (attempt == 1) return Fate.HOST_STALLED;
    }
  }

  /**
   * A pass through a target on this host whose event loops (this process's: a lab relay's timer
   * runs on one) stalled over the think's end, though not all of it the host's: said in the trials,
   * so that a pass a held timer let through is seen. It does not excuse the trial (a loop the lab's
   * own code held is the lab's fault, not the host's). A suite once saw a think of 1000 ms pass an
   * 870 ms relay with no stall named (s113, 2026-12-05).
   */
  private void noteLoopStalls(long started, long ended, double thinkMs, double hostMs) {
    TrialStalls loops =
        TrialStalls.overThinksEnd(HiccupMeter.get().loops(), started, ended, thinkMs);
    if (loops.ms() <= hostMs || loops.ms() < STALL_FLOOR_MS) return;
    String line =
        String.format(
            "think %.0f ms passed while this process's event loops stalled %.0f ms over its end "
                + "(the host's part: %.0f ms): a held timer may have let it pass",
            thinkMs, loops.ms(), hostMs);
    trials.add(line);
    progress.accept(line);
  }

  /**
   * A stream of two frames after {@code thinkMs}, with comments every {@code keepAliveMs} (0:
   * none).
   */
  private Fate once(HostPort at, ClientTls tls, double thinkMs, double keepAliveMs)
      throws Exception {
    double left = (deadlineNanos - System.nanoTime()) / 1e6;
    if (thinkMs + TRIAL_OVERHEAD_MS > left) return Fate.NO_TIME;
    String query =
        String.format("frames=2&size=60&interval=10ms&think=%dus", Math.round(thinkMs * 1000))
            + (keepAliveMs > 0
                ? String.format("&sse_keepalive=%dus", Math.round(keepAliveMs * 1000))
                : "");
    RequestPlan plan =
        asClient
            .apply(RequestPlan.get((tls == null ? "http://" : "https://") + at + "/sse?" + query))
            .withTls(tls);
    // the stream's own timeout, bounded by what is left of the budget: a target that never answers
    // costs the budget, not more
    long timeout = (long) (Math.min(thinkMs + 30_000, left) * 1e6);
    MeteredClient client =
        new MeteredClient(vertx, ClientOptions.single().withTimeoutNanos(timeout));
    BatchResult r;
    try {
      r = client.run(plan).await(timeout + 2_000_000_000L, TimeUnit.NANOSECONDS);
    } finally {
      client.close();
    }
    Fate f =
        r.streamsOk() == 1 && r.frames() == 2
            ? Fate.PASSED
            : cutByThePeer(r) ? Fate.CUT : Fate.FAILED;
    String line =
        String.format(
            "think %.0f ms%s: %s",
            thinkMs,
            keepAliveMs > 0 ? String.format(" with comments every %.0f ms", keepAliveMs) : "",
            f == Fate.PASSED
                ? "passed"
                : f == Fate.CUT
                    ? "cut (" + r.firstError() + ")"
                    : "failed (" + r.firstError() + ")");
    trials.add(line);
    progress.accept(line);
    return f;
  }

  /**
   * The one stream of a trial ended by the target before its frames ({@link
   * StreamResult#cutByThePeer}).
   */
  private static boolean cutByThePeer(BatchResult r) {
    return !r.streamResults().isEmpty() && r.streamResults().get(0).cutByThePeer();
  }
}
