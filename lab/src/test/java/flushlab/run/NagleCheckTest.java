package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.HostStalls;
import flushlab.ReadByRead;
import flushlab.map.CellEvidence;
import flushlab.map.EvidenceLine;
import flushlab.map.FlushTrigger;
import flushlab.map.ReplayVerdict;
import flushlab.map.SocketStageFit;
import flushlab.map.TwoStageCandidate;
import flushlab.netpath.NetworkPath;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A byte threshold of 6373 B then a hold of 30 ms, whose 4 KiB frames every 2 ms leave 16 at a
 * time, a segment each, as Nagle's would: the cells of a chain bench's `byte-threshold=6373B ->
 * timer=66ms` as a browser (2026-12-07), its 4 KiB cell as a 30 ms hold releases it (at 66 ms those
 * releases are two segments, which is no longer read as Nagle's). A threshold then Nagle reproduces
 * them; the cell of frames over the threshold 250 ms apart is measured, the Nagle model refused
 * there, and the hold's pair given. A target that is Nagle keeps its answer. Streams are built read
 * by read ({@link ReadByRead}), no socket: the target and each model's relay hold each frame of
 * that cell as they would.
 */
class NagleCheckTest {
  /** The cells the bench's map measured as a browser (the drained 50 ms cell added below). */
  static final String[] CELLS = {
    "frame_size=60B interval=2ms frames=600: 85.71 frames/read; 5.0 releases per stream of 97 frames (p10 97, p90 97); the oldest frame waited 192.1 ms (p10 192.1, p90 192.3); 194.0 ms between releases (p10 193.5, p90 194.1); 66 B per frame on the wire, 6403 B per release (p10 6403, p90 6403); the first frame waited 188.9 ms",
    "frame_size=4096B interval=2ms frames=600: 15.79 frames/read; 37.0 releases per stream of 16 frames (p10 16, p90 16); the oldest frame waited 30.2 ms (p10 30.1, p90 30.3); 32.0 ms between releases (p10 31.9, p90 32.1); 4104 B per frame on the wire, 65727 B per release (p10 65727, p90 65727); the first frame waited 31.0 ms",
    "frame_size=1024B interval=20ms frames=60: 6.67 frames/read; 7.0 releases per stream of 7 frames (p10 7, p90 7); the oldest frame waited 120.4 ms (p10 120.3, p90 120.4); 140.1 ms between releases (p10 140.0, p90 140.1); 1031 B per frame on the wire, 7219 B per release (p10 7219, p90 7219); the first frame waited 120.4 ms",
    "frame_size=60B interval=2ms frames=1800: 94.74 frames/read; 17.0 releases per stream of 97 frames (p10 97, p90 97); the oldest frame waited 192.3 ms (p10 192.1, p90 192.4); 194.1 ms between releases (p10 194.0, p90 194.2); 66 B per frame on the wire, 6403 B per release (p10 6403, p90 6403); the first frame waited 188.1 ms",
    "frame_size=60B interval=10ms frames=360: 90.00 frames/read; 2.0 releases per stream of 97 frames (p10 97, p90 97); the oldest frame waited 960.4 ms (p10 960.4, p90 960.9); 969.9 ms between releases (p10 969.9, p90 970.5); 66 B per frame on the wire, 6403 B per release (p10 6403, p90 6403); the first frame waited 940.4 ms"
  };

  static final String DRAINED_50_MS =
      "frame_size=60B interval=50ms frames=25: 1.00 frames/read; 1.0 releases per stream of 25 frames (p10 25, p90 25); the oldest frame waited 1200.0 ms (p10 1200.0, p90 1200.0); 1200.0 ms between releases (p10 1200.0, p90 1200.0); 66 B per frame on the wire, 1650 B per release (p10 1650, p90 1650); the first frame waited 1200.0 ms";

  static List<CellEvidence> cells() {
    List<CellEvidence> c = new ArrayList<>(EvidenceLine.parseAll(CELLS));
    c.add(2, EvidenceLine.parse(DRAINED_50_MS).drainedAs(25));
    return c;
  }

  record Checked(PairReplays.Result result, List<String> said) {}

  /** The check of the Nagle model against a target that holds each frame {@code targetHoldMs}. */
  static Checked check(long targetHoldMs) throws Exception {
    return check(targetHoldMs, false);
  }

  /**
   * As above; {@code modelStalled}: every run of a model's replay excluded for a stall of this
   * host.
   */
  static Checked check(long targetHoldMs, boolean modelStalled) throws Exception {
    List<String> said = new ArrayList<>();
    // a model with a hold in its chain holds each frame 30 ms, Nagle none
    FakeMapLab lab =
        new FakeMapLab(
            "byte-threshold=6373B",
            chain -> {
              long holdMs = chain.contains("timer=") ? 30 : 0;
              return (target, cell, index, run) ->
                  modelStalled
                      ? FakeMapLab.eachHeld(cell, run, holdMs)
                          .withExclusion(
                              Exclusion.hostStall("the client's host stalled 30 ms at 0.50 s"))
                      : FakeMapLab.eachHeld(cell, run, holdMs);
            });
    MapContext map =
        new MapContext(
            new Target.Relay(
                "t",
                ShaperRegistry.parseChain("byte-threshold=6373B -> timer=30ms"),
                false,
                NetworkPath.LOOPBACK),
            new ArrayList<>(),
            (target, cell, index, run) -> FakeMapLab.eachHeld(cell, run, targetHoldMs),
            new Certification(true, 1.0, 0.1, List.of(), "certified"),
            said::add,
            System.nanoTime() + 60_000_000_000L);
    List<CellEvidence> cells = cells();
    TwoStageCandidate nagle =
        SocketStageFit.candidates("t", cells, NetworkPath.LOOPBACK).stream()
            .filter(c -> c.chain().endsWith("-> nagle"))
            .findFirst()
            .orElseThrow();
    ModelReplay replays = new ModelReplay(lab);
    AlikeTeller.Reproduced reproduced =
        new AlikeTeller.Reproduced(
            nagle, nagle.chain(), new ReplayVerdict(nagle.chain(), List.of()), List.of());
    FlushTrigger inconclusive =
        FlushTrigger.inconclusive("t", "no one mechanism", List.of(), List.of());
    PairReplays.Result r =
        NagleCheck.check(
            lab,
            replays,
            new PairReplays(lab, replays),
            map,
            inconclusive,
            reproduced,
            cells,
            List.of());
    return new Checked(r, said);
  }

  @Test
  void aHoldAfterTheThresholdIsToldFromNagleByFramesAPauseApart() throws Exception {
    Checked c = check(30);
    String trace = String.join("\n", c.said());
    assertThat(c.result()).as(trace).isNotNull();
    assertThat(c.result().given()).as(trace).isNotNull();
    assertThat(c.result().given().chain()).as(trace).matches("byte-threshold=\\d+B -> timer=.*ms");
    assertThat(trace).contains("interval=250ms").contains("the target held frames");
  }

  @Test
  void aTargetThatIsNagleKeepsItsAnswer() throws Exception {
    Checked c = check(0);
    String trace = String.join("\n", c.said());
    assertThat(c.result()).as(trace).isNotNull();
    assertThat(c.result().given().chain()).as(trace).endsWith("-> nagle");
    assertThat(c.result().answer().replay()).as(trace).contains("1 of 1");
  }

  /**
   * The Nagle model's replay of the telling cell spoiled by this host's stalls: the model is given,
   * saying the hold after the threshold was not ruled out (in the words the suite reads as a host
   * stall), never as if the cell had agreed.
   */
  @Test
  void aTellingCellThisHostSpoiledLeavesTheHoldNotRuledOut() throws Exception {
    Checked c = check(30, true);
    String trace = String.join("\n", c.said());
    assertThat(c.result()).as(trace).isNotNull();
    assertThat(c.result().given().chain()).as(trace).endsWith("-> nagle");
    assertThat(c.result().answer().verdict())
        .as(trace)
        .contains(HostStalls.PHRASE)
        .endsWith("that one is not ruled out");
  }
}
