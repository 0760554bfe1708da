package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.HostStalls;
import flushlab.run.Exclusion;
import flushlab.run.Outcome;
import flushlab.run.RunRecord;
import flushlab.run.TargetCellResult;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A scenario's run that the pacing guard excludes (the emitter's loop stalled on purpose here, as a
 * host stall would) is measured once more, once, as the map's are: both runs are kept, the first
 * named excluded, and the cell's figures come from the second.
 */
class ExcludedRunTest {
  @Test
  void aRunTheGuardExcludesIsMeasuredOnceMoreAndBothAreKept() throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: excluded-run
        emitter: {frames: 20, frame_size: 60B, interval: 20ms}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 1}}
        targets:
          - {name: direct, kind: direct}
        flush_trigger_map: false
        """);
    AtomicBoolean stalled = new AtomicBoolean();
    Outcome o =
        ScenarioFixture.run(
            s,
            (target, cell, run, loop) -> {
              if (cell != 0 || !stalled.compareAndSet(false, true)) return;
              // 100 ms into the first measured run, the emitter's loop is kept busy for 80 ms:
              // frames due then go late
              loop.runOnContext(
                  v ->
                      loop.owner()
                          .setTimer(
                              100,
                              t -> {
                                long until = System.nanoTime() + 80_000_000L;
                                while (System.nanoTime() < until) {
                                  Thread.onSpinWait();
                                }
                              }));
            });
    assertThat(o.certification().certified()).isTrue();
    TargetCellResult direct = o.results().get(0);
    assertThat(direct.runs()).hasSize(2);
    RunRecord first = direct.runs().get(0);
    RunRecord second = direct.runs().get(1);
    System.out.println(
        "ExcludedRunTest: first run excluded: "
            + first.exclusionReason()
            + "; second: excluded "
            + second.excluded()
            + " ("
            + second.exclusionReason()
            + ")");
    assertThat(first.excluded()).isTrue();
    assertThat(first.exclusionReason()).startsWith("emitter late by");
    assertThat(first.exclusion().cause())
        .as("its loop ran the lab's own code")
        .isEqualTo(Exclusion.Cause.EMITTER_LATE);
    assertThat(first.exclusionReason())
        .as("what held the frame, from its loop's ticks")
        .containsPattern("; its loop stalled \\d+\\.\\d ms \\(over the .* its thread ran");
    assertThat(first.excludedForHostStall())
        .as("an emitter late is not a host stall, whatever the host did")
        .isFalse();
    if (second.excluded() && second.spoiledByHostStall()) {
      HostStalls.skip(
          "host stall, not a result: the run measured again was spoiled by this host too ("
              + second.exclusionReason()
              + "; host stalls "
              + second.stalls().host().describe()
              + ")");
    }
    assertThat(second.excluded())
        .as("the run measured again, unstalled: %s", second.exclusionReason())
        .isFalse();
    assertThat(direct.included().frames()).as("the figures are the second run's").isEqualTo(20);
  }
}
