package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.HostStalls;
import flushlab.client.StreamResult;
import flushlab.core.HiccupMeter;
import flushlab.core.StallFigures;
import flushlab.map.FlushTrigger;
import flushlab.map.TriggerKind;
import flushlab.run.Outcome;
import flushlab.run.RunRecord;
import flushlab.run.ScenarioRunner;
import flushlab.run.TargetCellResult;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * A stall of the reading host merges frames as a proxy would; the hiccup meter tells the two apart.
 * Each test stops this process on purpose ({@link HiccupMeter#injectHostStall}: the meter's thread
 * and every event loop held for the same span, as a descheduled VM or a GC pause holds them) a
 * fixed time into a run. The pacing guard is set wide (200 ms) in the three tests where the
 * emitter, which shares the stalled process, would otherwise exclude the run first: the rule under
 * test is the meter's.
 */
class HostStallTest {
  /**
   * A stall of {@code ms} injected {@code atMs} into every run of the cells {@code forCell} accepts
   * (certification is cell -1): the meter's thread and every event loop held, the emitter's loop
   * resuming 10 ms before the rest, as the threads of one stalled process resume apart (so the
   * frames it catches up on wait in the socket for the stalled reader, as they do when the host
   * stops the reader). {@code calls} counts those runs.
   */
  private static ScenarioRunner.RunHook hostStall(
      int atMs, int ms, IntPredicate forCell, AtomicInteger calls) {
    return (target, cell, run, loop) -> {
      if (!forCell.test(cell)) return;
      calls.incrementAndGet();
      Vertx v = loop.owner();
      EventExecutor emitterLoop = ((ContextInternal) loop).nettyEventLoop();
      loop.runOnContext(
          x ->
              v.setTimer(
                  atMs,
                  t -> {
                    HiccupMeter.get().holdHostThread(ms * 1_000_000L);
                    for (EventExecutor e : ((VertxInternal) v).nettyEventLoopGroup()) {
                      HiccupMeter.hold(
                          e, e == emitterLoop ? (ms - 10) * 1_000_000L : ms * 1_000_000L);
                    }
                  }));
    };
  }

  /**
   * A passthrough relay merges nothing, so every merged read of its run should be the injected
   * stall's. One outside every stall the meter logged (the host preempted the client for less than
   * a tick, beside other test classes) breaks the test's premise, not the rule: skipped, with the
   * figures. All of them inside the stall and the run kept is the rule broken: the test fails.
   */
  private static void skipUnlessTheOnlyMergesWereInStalls(RunRecord first) {
    // the injected stall held the emitter past the reader's own hold, so its late frames came
    // after the reader had run again: nothing was read together, and nothing was to be excluded
    // (s260: the emitter 75 ms late, no frame merged, on a host whose suite skipped 24 tests)
    if (first.stalls().extraFrames() == 0 && first.maxPacingLatenessNanos() >= 50_000_000L)
      HostStalls.skip(
          String.format(
              "the test's premise, not a result: the injected stall held the emitter %.1f ms and"
                  + " no frame was read together (host stalls %s)",
              first.maxPacingLatenessNanos() / 1e6, first.stalls().host().describe()));
    int outside = first.stalls().extraFrames() - first.stalls().extraInHostStalls();
    if (outside > 0
        && first.stalls().extraInHostStalls()
            > 0) { // none in the stall at all would be the judge broken: that fails
      HostStalls.skip(
          String.format(
              "the test's premise, not a result: %d of the %d frames read together through a passthrough relay "
                  + "were read outside any stall this host logged (host stalls %s)",
              outside, first.stalls().extraFrames(), first.stalls().host().describe()));
    }
  }

  /**
   * 60 frames of 60 B every 5 ms through a passthrough relay, one run, the pacing guard wide (200
   * ms).
   */
  private static Scenario passthroughRelay(String name) throws ScenarioError {
    return ScenarioFixture.parse(
        """
        name: %s
        emitter: {frames: 60, frame_size: 60B, interval: 5ms}
        runs: 1
        guards: {pacing_tolerance: 200ms, certify: {runs: 1}}
        targets:
          - {name: relay, kind: relay, shapers: [passthrough]}
        flush_trigger_map: false
        """
            .formatted(name));
  }

  @Test
  void aRunWhoseOnlyMergedReadsFellInAHostStallIsExcludedNamedAndMeasuredOnceMore()
      throws Exception {
    Scenario s = passthroughRelay("host-stall");
    AtomicInteger calls = new AtomicInteger();
    // only the first measured run of the cell stalls: the one measured again does not
    Outcome o =
        ScenarioFixture.runAsMeasured(
            s,
            (target, cell, run, loop) -> {
              if (cell == 0 && calls.getAndIncrement() == 0)
                hostStall(100, 70, c -> true, new AtomicInteger())
                    .beforeRun(target, cell, run, loop);
            });
    HostStalls.skipIfStalled(o);
    assertThat(o.certified()).as(o.certification().verdict()).isTrue();
    TargetCellResult relay = o.results().get(0);
    RunRecord first = relay.runs().get(0);
    skipUnlessTheOnlyMergesWereInStalls(first);
    assertThat(relay.runs()).hasSize(2);
    System.out.println(
        "HostStallTest: first run: "
            + first.exclusionReason()
            + "; host stalls "
            + first.stalls().host().describe());
    assertThat(first.excluded()).isTrue();
    assertThat(first.excludedForHostStall()).isTrue();
    assertThat(first.exclusionReason())
        .startsWith("the client's host stalled")
        .contains("read together");
    assertThat(first.stalls().host().maxMs())
        .as("the injected 70 ms stall")
        .isGreaterThanOrEqualTo(65);
    assertThat(first.stalls().extraInHostStalls())
        .isEqualTo(first.stalls().extraFrames())
        .isPositive();
    RunRecord second = relay.runs().get(1);
    assertThat(second.excluded())
        .as("the run measured again: %s", second.exclusionReason())
        .isFalse();
    assertThat(relay.included().frames()).as("the figures are the second run's").isEqualTo(60);
  }

  @Test
  void aRelayThatReallyCoalescesIsNeverExcusedAndItsHiddenThresholdIsFound() throws Exception {
    long seed = Long.getLong("flushlab.seed", System.nanoTime());
    int threshold = 300 + new Random(seed).nextInt(8 * 1024 - 300 + 1);
    System.out.println(
        "HostStallTest: hidden byte threshold "
            + threshold
            + " B (seed "
            + seed
            + ", replay with -Dflushlab.seed="
            + seed
            + ")");
    Scenario s =
        ScenarioFixture.parse(
            """
        name: bt-under-stalls
        emitter: {frames: %d, interval: 1ms}
        sweep: {frame_size: [60B, 150B]}
        targets:
          - {name: relay, kind: relay, shapers: [byte-threshold=%dB]}
        runs: 1
        guards: {pacing_tolerance: 200ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        """
                .formatted(
                    Math.max(300, (int) Math.ceil(5.0 * threshold / 60)),
                    threshold)); // 300 ms at least: the stall comes 100 ms in
    // every measured run is stopped for 50 ms, 100 ms in
    Outcome o =
        ScenarioFixture.runAsMeasured(s, hostStall(100, 50, c -> c >= 0, new AtomicInteger()));
    // a certification this host's own stalls refused measured nothing; the cells' exclusions are
    // what this test judges, so only the certification's may skip it
    HostStalls.skipIfSaidIn(o.certification().verdict());
    assertThat(o.certified()).as(o.certification().verdict()).isTrue();
    for (TargetCellResult r : o.results()) {
      for (RunRecord run : r.runs()) {
        // the premise is one stall, the injected one: where this host stalled again and again
        // through the run, the frames its stalls merged may well be most of those the relay did,
        // and excusing the run is the judge's right reading (s285: five stalls, the longest 68 ms,
        // and 327 ms of its loops waiting for a core, beside a suite's other forks)
        StallFigures host = run.stalls().host();
        if (run.excludedForHostStall() && (host.over20Ms() >= 2 || host.over5Ms() >= 4))
          HostStalls.skip(
              "host stall, not a result: besides the injected 50 ms stall this host stalled"
                  + " through the run ("
                  + host.describe()
                  + "): "
                  + run.exclusionReason());
        assertThat(run.excludedForHostStall())
            .as("a run of a coalescing relay excused as a host stall: %s", run.exclusionReason())
            .isFalse();
        assertThat(run.stalls().host().maxMs())
            .as("the injected stall was seen")
            .isGreaterThanOrEqualTo(45);
      }
    }
    FlushTrigger t = o.triggers().get("relay");
    // the premise is one stall, the injected one: a run this host also stalled in (a second stall
    // over 20 ms) can spread the releases past what any one threshold explains, and then the answer
    // is the host's, not the relay's (a fresh-clone suite, 2026-12-05: inconclusive, the 60 B
    // cell's waits spread from 87 to 128 ms)
    if (t.kind() != TriggerKind.BYTE_THRESHOLD) {
      for (TargetCellResult r : o.results())
        for (RunRecord run : r.runs())
          if (run.stalls().host().over20Ms() >= 2)
            HostStalls.skip(
                "host stall, not a result: besides the injected 50 ms stall this host stalled"
                    + " in a run ("
                    + run.stalls().host().describe()
                    + "), and the answer was "
                    + t.verdict());
    }
    assertThat(t.kind())
        .as(t.verdict() + " / " + t.evidence())
        .isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.thresholdBytes())
        .as("threshold %d B: %s", threshold, t.verdict())
        .isBetween(threshold * 0.9, threshold * 1.1);
  }

  /**
   * A stall explains no more frames than could pile up while it lasted: a relay that holds the
   * whole stream and releases it as a stall ends merged those frames long before, and is kept.
   */
  @Test
  void aStallAtTheReleaseOfAHeldStreamExplainsOnlyWhatItCouldHavePiledUp() throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: drain-under-stall
        emitter: {frames: 41, frame_size: 60B, interval: 10ms}
        runs: 1
        guards: {pacing_tolerance: 200ms, certify: {runs: 1}}
        targets:
          - {name: drain, kind: relay, shapers: [drain-and-flush]}
        flush_trigger_map: false
        """);
    // the stream ends some 400 ms in (later when setting it up took long: under a CPU hog a 25 ms
    // stall from 390 ms once
    // ended before the release), when the relay releases it whole: an 80 ms host stall from 380 ms
    // covers that read
    Outcome o =
        ScenarioFixture.runAsMeasured(s, hostStall(380, 80, c -> c == 0, new AtomicInteger()));
    // a certification this host's own stalls refused measured nothing (s263: stalls of 143 ms)
    HostStalls.skipIfStalled(o);
    RunRecord first = o.results().get(0).runs().get(0);
    System.out.println(
        "HostStallTest: drain under a stall: "
            + first.stalls().hostStall()
            + "; extra frames "
            + first.stalls().extraFrames()
            + ", in host stalls "
            + first.stalls().extraInHostStalls());
    // the premise, checked apart from the judge: the release (the read with the most frames) came
    // within the injected stall
    StreamResult stream = first.result().streamResults().get(0);
    long releaseAt = 0;
    long most = 0;
    for (int i = 0; i < stream.reads().framesPerFramedRead().size(); i++) {
      if (stream.reads().framesPerFramedRead().get(i) > most) {
        most = stream.reads().framesPerFramedRead().get(i);
        releaseAt = stream.reads().framedReadAt().get(i);
      }
    }
    long at = releaseAt;
    boolean inTheStall =
        HiccupMeter.get().host().between(at - 1_000_000_000L, at).stream()
            .anyMatch(
                st ->
                    st.nanos() >= 70_000_000L
                        && st.fromNanos() <= at
                        && at <= st.toNanos() + 5_000_000L);
    if (!inTheStall) {
      HostStalls.skip(
          "the test's premise, not a result: the held stream's release was read after its injected stall had ended ("
              + first.stalls().host().describe()
              + "; setting the run up took long), so there is nothing for the rule to bound");
    }
    assertThat(first.stalls().extraFrames())
        .as("the held stream came in one or two reads")
        .isGreaterThanOrEqualTo(39);
    int bound = (int) (first.stalls().host().maxMs() / 10) + 1;
    assertThat(first.stalls().extraInHostStalls())
        .as(
            "the release was read in the stall, which explains at most its length over the "
                + "10 ms interval, plus one: %d",
            bound)
        .isBetween(1, bound);
    assertThat(first.excluded())
        .as("a relay that held the stream is never excused: %s", first.exclusionReason())
        .isFalse();
  }

  /**
   * The stall comes 150 ms after the run is set off, into a 420 ms certification stream. It was 60
   * ms into a 200 ms one, and once (a fresh-clone suite, 2026-12-04) every run read clean and the
   * path was "certified": the stream starts only once the client has connected, so beside other
   * test classes a stall set 60 ms after the hook may cover no frame, or one. Now a late connection
   * still leaves the stall inside the stream.
   */
  @Test
  void aDirectPathThatFailsOnlyInsideHostStallsIsNotCertifiedForTheHostsStalls() throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: cert-stalls
        emitter: {frames: 20, frame_size: 60B, interval: 5ms}
        runs: 1
        guards: {pacing_tolerance: 200ms, certify: {runs: 2, frames: 22, interval: 20ms}}
        targets:
          - {name: direct, kind: direct}
        flush_trigger_map: false
        """);
    AtomicInteger calls = new AtomicInteger();
    Outcome o = ScenarioFixture.runAsMeasured(s, hostStall(150, 90, c -> c < 0, calls));
    System.out.println("HostStallTest: " + o.certification().verdict());
    for (RunRecord r : o.certification().runs()) {
      System.out.println(
          "HostStallTest: certification run "
              + r.run()
              + (r.excluded() ? " excluded: " + r.exclusionReason() : " kept")
              + "; frames per read "
              + r.result().framesPerRead()
              + (r.stalls() == null
                  ? "; no stall figures"
                  : "; extra frames "
                      + r.stalls().extraFrames()
                      + ", in host stalls "
                      + r.stalls().extraInHostStalls()
                      + "; host stalls "
                      + r.stalls().host().describe()));
    }
    // the premise: the injected stall merges frames in every run. Twice in fresh-clone suites
    // (2026-12-05) a kept run read none together, though a check for a kept run whose meter logged
    // no stall of 80 ms let it through: that run did not fail at all, which tests nothing, and is
    // skipped with the figures. A kept run that did read frames together is the rule's to have
    // excluded: the assertions below hold it to that.
    // Likewise a kept run whose frames read together were none in this host's stalls: the emitter,
    // held by the stall too, wrote them together after it, which certification counts once (s241:
    // 8 extra frames, none in host stalls, 1.071 frames a read so counted, certified).
    for (RunRecord r : o.certification().runs()) {
      if (!r.excluded() && r.stalls() != null && r.stalls().extraInHostStalls() == 0) {
        HostStalls.skip(
            "the injected 90 ms stall merged no frame of a kept certification run (its host stalls: "
                + r.stalls().host().describe()
                + "): "
                + o.certification().verdict());
      }
    }
    assertThat(o.certified()).isFalse();
    assertThat(calls.get()).as("each certification run measured once more, once").isEqualTo(4);
    assertThat(o.certification().verdict())
        .startsWith("not certified: this host stalled during certification")
        .contains("over 20 ms");
    assertThat(o.certification().runs()).allMatch(RunRecord::excludedForHostStall);
    assertThat(o.results()).as("nothing measured on an uncertified host").isEmpty();
  }

  @Test
  void aLoopHeldByTheLabsOwnCodeIsNamedAndNeverExcusesTheRun() throws Exception {
    Scenario s = passthroughRelay("loop-stall");
    AtomicInteger calls = new AtomicInteger();
    // the holds end at one moment, so that every loop runs again together (holds of 60 ms each from
    // when each loop got
    // to it let a relay's loop resume after the reader's, and its piled-up frames read as the
    // relay's, s54); a loop
    // that got to its hold late holds less: the longest and shortest holds are kept
    AtomicLong longestHeld = new AtomicLong();
    AtomicLong shortestHeld = new AtomicLong(Long.MAX_VALUE);
    Outcome o =
        ScenarioFixture.runAsMeasured(
            s,
            (target, cell, run, loop) -> {
              if (cell != 0 || calls.getAndIncrement() > 0) return;
              Vertx v = loop.owner();
              // 100 ms in, every event loop blocks until 60 ms later (parked: the cores stay free,
              // so the host does not stall)
              loop.runOnContext(
                  x ->
                      v.setTimer(
                          100,
                          t -> {
                            long until = System.nanoTime() + 60_000_000L;
                            for (EventExecutor e : ((VertxInternal) v).nettyEventLoopGroup()) {
                              e.execute(
                                  () -> {
                                    long held = until - System.nanoTime();
                                    longestHeld.accumulateAndGet(held, Math::max);
                                    shortestHeld.accumulateAndGet(held, Math::min);
                                    while (System.nanoTime() - until < 0)
                                      LockSupport.parkNanos(until - System.nanoTime());
                                  });
                            }
                          }));
            });
    // a host that kept a loop from its hold most of the 60 ms (under a CPU hog, h16) leaves it too
    // short to pile up frames
    if (shortestHeld.get() < 20_000_000L) {
      HostStalls.skip(
          String.format(
              "host stall, not a result: this host kept an event loop from the hold the test asked for until "
                  + "%.0f ms of its 60 were left",
              Math.max(0, shortestHeld.get()) / 1e6));
    }
    HostStalls.skipIfSaidIn(o.certification().verdict());
    TargetCellResult relay = o.results().get(0);
    RunRecord first = relay.runs().get(0);
    System.out.println(
        "HostStallTest: loop stall: "
            + first.stalls().loopStall()
            + "; extra frames "
            + first.stalls().extraFrames()
            + "; loops "
            + first.stalls().loops().describe()
            + "; host "
            + first.stalls().host().describe());
    // the premise: frames pile up through the hold and are read together after it. Once (a
    // fresh-clone suite, 2026-12-05) no frame of the run was read with another though the loops'
    // stall was logged at its length: that run merged nothing for the rule to name, and is skipped
    // with the figures
    if (first.stalls().extraFrames() == 0) {
      HostStalls.skip(
          "the test's premise, not a result: the loops' hold merged no frame of the run (loops "
              + first.stalls().loops().describe()
              + ")");
    }
    // a loop's tick is 10 ms: a stall that began mid-tick is seen short by up to that (s35: a loop
    // that got to
    // its hold 0.6 ms after the 60 ms were set was held 59.4 ms and logged a 49.4 ms stall)
    assertThat(first.stalls().loops().maxMs())
        .as("the loops' stall")
        .isGreaterThanOrEqualTo((longestHeld.get() - HiccupMeter.LOOP_TICK_NANOS) / 1e6);
    assertThat(first.stalls().extraInLoopStallsOnly())
        .as("frames read together when the loops ran again")
        .isPositive();
    assertThat(first.stalls().loopStall()).contains("the lab's own code held the loop");
    assertThat(first.excluded())
        .as("a loop stall is the lab's fault, never an excuse: %s", first.exclusionReason())
        .isFalse();
    assertThat(relay.runs()).hasSize(1);
  }
}
