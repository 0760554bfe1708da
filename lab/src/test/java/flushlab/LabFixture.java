package flushlab;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.SentTogether;
import flushlab.core.HiccupMeter;
import flushlab.core.HostQuiet;
import flushlab.core.LabVertx;
import flushlab.core.ThreadWaits;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.emitter.LateFrame;
import flushlab.emitter.PacingAudit;
import flushlab.run.RunStalls;
import flushlab.run.StallJudge;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A Vert.x on epoll with an emitter on an ephemeral loopback port, for tests. */
public final class LabFixture implements AutoCloseable {
  public final Vertx vertx;
  public final Emitter emitter;

  /** The stalls of the run {@link #measurePaced} kept last, as the judge read them. */
  private volatile RunStalls keptStalls;

  public LabFixture() throws Exception {
    this(EmitterOptions.loopback(0), 3);
  }

  public LabFixture(EmitterOptions options, int eventLoops) throws Exception {
    vertx = LabVertx.create(eventLoops);
    emitter = new Emitter(options);
    vertx.deployVerticle(emitter).await(10, TimeUnit.SECONDS);
  }

  public String sseUrl(String query) {
    return "http://127.0.0.1:" + emitter.port() + "/sse?" + query;
  }

  public BatchResult measure(RequestPlan plan, ClientOptions options) throws Exception {
    MeteredClient client = new MeteredClient(vertx, options);
    try {
      return client.run(plan).await(120, TimeUnit.SECONDS);
    } finally {
      client.close();
    }
  }

  public BatchResult measure(String url) throws Exception {
    return measure(RequestPlan.get(url), ClientOptions.single());
  }

  /**
   * A finished stream's audit. The emitter files it on its event loop right after the stream's last
   * send(), so a client on another loop can have read the whole stream a moment before: wait for it
   * (up to 5 s) rather than read a missing audit as a failure.
   */
  public PacingAudit.Summary auditOf(long streamId) throws InterruptedException {
    Await.until(
        "the emitter filed the audit of stream " + streamId,
        5000,
        () -> emitter.audits().summary(streamId) != null);
    return emitter.audits().summary(streamId);
  }

  /**
   * The least pacing tolerance a test applies: the scenario default (5 ms) is for a lab alone on
   * its host, while a test's emitter shares its JVM with the test runner, the JIT and sometimes a
   * proxy on two cores. Measured: in one full suite run the in-process emitter wrote a frame 6.1
   * and 8.0 ms late in two of the shaper tests' streams, and both runs of a 10 ms stream through
   * nginx were excluded at 5 ms; at 10 ms none was.
   */
  public static final long TEST_PACING_FLOOR_NANOS = 10_000_000L;

  /**
   * The pacing tolerance for a stream of frames {@code intervalNanos} apart: the test floor, or
   * half the interval when that is larger. A frame written less than half an interval late still
   * leaves half an interval before the next one, so it cannot share the next one's read.
   */
  public static long pacingToleranceNanos(long intervalNanos) {
    return Math.max(TEST_PACING_FLOOR_NANOS, intervalNanos / 2);
  }

  /**
   * The pacing guard, as a scenario applies it: every paced stream of {@code r} (frames {@code
   * intervalNanos} apart) was written on time by the emitter (its own audit), so what the test
   * reads is the path's doing, not a stalled emitter. A response without the emitter's stream id (a
   * relay's own 502) has no audit to read.
   */
  /**
   * The latest the emitter wrote any frame of {@code r}'s paced streams (its own audit), in ns; 0
   * when none was paced.
   */
  public long emitterLatenessMaxNanos(BatchResult r) throws InterruptedException {
    long worst = 0;
    for (long id : r.streamIds()) {
      if (id < 0) continue;
      PacingAudit.Summary audit = auditOf(id);
      if (audit.paced()) worst = Math.max(worst, audit.latenessMaxNanos());
    }
    return worst;
  }

  /**
   * What held the latest of {@code r}'s late frames (over {@code tolerance}), judged as the lab's
   * emitter judges it against its own loop's stalls ({@link LateFrame}); null when no frame was
   * late.
   */
  public LateFrame.Held lateFrameHeld(BatchResult r, long tolerance) throws InterruptedException {
    PacingAudit.Summary worst = null;
    for (long id : r.streamIds()) {
      if (id < 0) continue;
      PacingAudit.Summary audit = auditOf(id);
      if (audit.paced()
          && audit.latenessMaxNanos() > tolerance
          && (worst == null || audit.latenessMaxNanos() > worst.latenessMaxNanos())) {
        worst = audit;
      }
    }
    return worst == null ? null : worst.judged(HiccupMeter.get().loopLedger()).held();
  }

  /**
   * {@link #measure(RequestPlan, ClientOptions)} of frames {@code intervalNanos} apart, under the
   * pacing guard and the meter.
   */
  public BatchResult measurePaced(long intervalNanos, RequestPlan plan, ClientOptions options)
      throws Exception {
    return measurePaced(intervalNanos, () -> measure(plan, options));
  }

  /** One measurement of a paced stream, for {@link #measurePaced}. */
  public interface Measurement {
    BatchResult run() throws Exception;
  }

  /**
   * A measurement under the pacing guard and the hiccup meter, as the map applies them: when the
   * emitter's own audit says it wrote a frame later than the tolerance, or every frame read
   * together was read in a stall of this host, that run says nothing of the path; it is printed and
   * measured once more, once. When the second run is spoiled too and this host stalled in it, the
   * test is skipped as a host stall with the figures ({@link HostStalls}); an emitter late with no
   * host stall (the lab's own code held its loop) fails the test.
   */
  public BatchResult measurePaced(long intervalNanos, Measurement m) throws Exception {
    return measurePaced(intervalNanos, "", List.of(), m);
  }

  /**
   * As {@link #measurePaced(long, Measurement)} through a process of the path ({@code pathName},
   * {@code pathPids}: a real proxy the test started, with the processes it starts): frames it held
   * while its busiest thread waited for a core are the host's, as the lab judges them (under a CPU
   * hog, a proxy over h2c read 20 frames in 18 reads with a gap of 80 ms, and the test knew only
   * its own threads' waits).
   */
  public BatchResult measurePaced(
      long intervalNanos,
      String pathName,
      List<Long> pathPids,
      RequestPlan plan,
      ClientOptions options)
      throws Exception {
    return measurePaced(intervalNanos, pathName, pathPids, () -> measure(plan, options));
  }

  private BatchResult measurePaced(
      long intervalNanos, String pathName, List<Long> pathPids, Measurement m) throws Exception {
    long tolerance = pacingToleranceNanos(intervalNanos);
    BatchResult r = null;
    for (int attempt = 0; attempt < 2; attempt++) {
      long from = System.nanoTime();
      ThreadWaits waitsBefore = ThreadWaits.of(pathPids);
      r = m.run();
      StallJudge.PathWait path =
          pathPids.isEmpty()
              ? StallJudge.PathWait.NONE
              : new StallJudge.PathWait(
                  pathName, ThreadWaits.of(pathPids).longestSince(waitsBefore));
      RunStalls stalls = StallJudge.judge(r, from, System.nanoTime(), "test", intervalNanos, path);
      long late = emitterLatenessMaxNanos(r);
      LateFrame.Held held = late > tolerance ? lateFrameHeld(r, tolerance) : null;
      String spoiled =
          late > tolerance
              ? String.format(
                  "the emitter wrote a frame %.3f ms late (tolerance %.1f ms)%s",
                  late / 1e6, tolerance / 1e6, held == null ? "" : held.why())
              : stalls.excusedByHost() ? stalls.hostStall() : null;
      if (spoiled == null) {
        keptStalls = stalls;
        // a kept run that read frames together says why it was kept (a test's threshold may still
        // refuse it: then its output holds what the judge saw)
        if (stalls.extraFrames() > 0)
          System.out.printf(
              "run kept: %d of %d frames read with others, %d of them in host stalls, %d in loop"
                  + " stalls only%s%s%n",
              stalls.extraFrames(),
              stalls.frames(),
              stalls.extraInHostStalls(),
              stalls.extraInLoopStallsOnly(),
              stalls.hostStall() == null ? "" : "; " + stalls.hostStall(),
              stalls.loopStall() == null ? "" : "; " + stalls.loopStall());
        break;
      }
      // the host, not the lab's own code on the emitter's loop, made the emitter late: it stalled
      // at least half as long, or
      // the loop stall that held the late frame was the host's (its thread waited for a core, or
      // stood with the JVM), as the lab judges it
      boolean hostMadeItLate =
          late > tolerance
              && (stalls.host().maxMs() * 1e6 >= late / 2.0 || held != null && held.byHost());
      String again =
          attempt == 1
              ? ""
              : "; measured once more, as the map does"
                  + (stalls.excusedByHost() || hostMadeItLate
                      ? " " + HostQuiet.await(HiccupMeter.get()).text()
                      : "");
      System.out.println("run excluded: " + spoiled + again);
      if (attempt == 1 && (stalls.excusedByHost() || hostMadeItLate)) {
        HostStalls.skip(
            "host stall, not a result: two runs in a row were spoiled; the second: "
                + spoiled
                + " (host stalls "
                + stalls.host().describe()
                + ")");
      }
    }
    assertEmitterOnTime(r, intervalNanos);
    return r;
  }

  /**
   * Frames per read of {@code r}, the run {@link #measurePaced} kept last, the frames it read
   * together in stalls of this host counted once, as the certification counts what the lab's own
   * emitter wrote together ({@link SentTogether#framesPerReadLess}): a kept run with 3 of its 6
   * extra frames in host stalls read 1.25 frames a read, 1.125 outside them (s256).
   */
  public double framesPerReadOutsideHostStalls(BatchResult r) {
    RunStalls s = keptStalls;
    return SentTogether.framesPerReadLess(r, s == null ? 0 : s.extraInHostStalls());
  }

  public void assertEmitterOnTime(BatchResult r, long intervalNanos) throws InterruptedException {
    long tolerance = pacingToleranceNanos(intervalNanos);
    for (long id : r.streamIds()) {
      if (id < 0) continue;
      PacingAudit.Summary audit = auditOf(id);
      if (!audit.paced())
        continue; // frames as fast as the socket takes them have no deadline to be late for
      assertThat(audit.latenessMaxNanos())
          .as(
              "the emitter's own audit of stream %d: it wrote a frame %.3f ms late, over the "
                  + "pacing tolerance, and this host's stalls do not account for it (the lab's own code held a loop, or contention the "
                  + "meter does not see)",
              id, audit.latenessMaxNanos() / 1e6)
          .isLessThanOrEqualTo(tolerance);
    }
  }

  @Override
  public void close() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }
}
