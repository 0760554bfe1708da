package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.HostStalls;
import flushlab.ReadByRead;
import flushlab.map.FlushTrigger;
import flushlab.map.ReplayVerdict;
import flushlab.map.TriggerKind;
import flushlab.netpath.NetworkPath;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.scenario.Cell;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A clock of 177 ms answered alone, held to the cell that would show a hold behind it: the target
 * keeps each frame of that cell 69 ms, and this host's stalls spoil both runs of the model's replay
 * there. The clock stands, saying its twin is not ruled out, in the words the suite reads as a host
 * stall (s290 gave the clock alone as verified, nothing said). Streams are built read by read
 * ({@link ReadByRead}), no socket.
 */
class TwinReplayStalledOutTest {
  static final long HOLD_MS = 69;

  /** The target: each frame of the telling cell let go 69 ms after it came. */
  static RunRecord heldEach(Cell cell, int index) {
    return FakeMapLab.eachHeld(cell, index, HOLD_MS);
  }

  /** The model's relay, each run excluded for a stall of this host. */
  static RunRecord stalledOut(Cell cell, int index) {
    return heldEach(cell, index)
        .withExclusion(
            Exclusion.hostStall(
                "the client's host stalled 2 ms at 0.18 s: 2 frames read together"));
  }

  @Test
  void aTwinWhoseModelReplayThisHostSpoiledIsNotRuledOutAndSaysSo() throws Exception {
    List<String> said = new ArrayList<>();
    FakeMapLab lab =
        new FakeMapLab(
            "timer=177ms,periodic=true",
            chain -> (target, cell, index, run) -> stalledOut(cell, run));
    MapContext map =
        new MapContext(
            new Target.Relay(
                "t",
                ShaperRegistry.parseChain("timer=177ms,periodic=true -> timer=69ms"),
                false,
                NetworkPath.LOOPBACK),
            new ArrayList<>(),
            (target, cell, index, run) -> heldEach(cell, run),
            new Certification(true, 1.0, 0.1, List.of(), "certified"),
            said::add,
            System.nanoTime() + 60_000_000_000L);
    FlushTrigger clock =
        new FlushTrigger(
            "t",
            TriggerKind.PERIODIC_TIMER,
            null,
            null,
            177.1,
            null,
            "periodic timer",
            List.of(),
            List.of());
    ReplayVerdict given = new ReplayVerdict("timer=177.1ms,periodic=true", List.of());
    TwinCheck.Checked checked =
        TwinCheck.check(lab, new ModelReplay(lab), map, clock, given, List.of(), List.of());
    String trace = String.join("\n", said);
    assertThat(checked).as(trace).isNotNull();
    assertThat(checked.answer().verdict())
        .as(trace)
        .contains("this host stalled in both runs of the replay of frame_size=60B interval=172ms")
        .contains(HostStalls.PHRASE)
        .endsWith("that one is not ruled out");
  }
}
