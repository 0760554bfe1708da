package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.ClientProfile;
import flushlab.map.CompressionFinding;
import flushlab.map.FlushTrigger;
import flushlab.map.TriggerKind;
import flushlab.scenario.Cell;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The client a cell telling alike models apart is measured as: the models were fitted to one
 * client's cells, and a cell measured as another would compare them on what they were not fitted
 * to. The chains are those `flushlab map --shape 'compress=gzip,flush=input,bytes=2200B ->
 * timer=200ms,periodic=true' --client browser` replayed alike (2026-12-05), told apart as the
 * browser.
 */
class PairReplaysTest {
  private static final Cell SCENARIO = Cell.DEFAULTS.withProfile(ClientProfile.BARE);
  private static final Cell ACCEPTING = Cell.DEFAULTS.withProfile(ClientProfile.BROWSER);
  private static final List<String> COMPRESSORS =
      List.of(
          "compress=gzip,flush=input,bytes=2188B -> timer=200.3ms,periodic=true",
          "timer=200.3ms,periodic=true -> compress=gzip,flush=input,bytes=2662B");

  private static FlushTrigger clock() {
    return new FlushTrigger(
        "x", TriggerKind.PERIODIC_TIMER, null, null, 200.3, null, "clock", List.of(), List.of());
  }

  private static FlushTrigger compressing() {
    FlushTrigger unexplained =
        new FlushTrigger(
            "x", TriggerKind.INCONCLUSIVE, null, null, null, null, "?", List.of(), List.of());
    return clock()
        .withCompression(
            CompressionFinding.of("gzip", "browser", unexplained, "bare", clock(), null));
  }

  @Test
  void aTargetThatDidNotCompressIsToldApartAsTheScenariosClient() {
    assertThat(
            PairReplays.tellAs(
                clock(),
                List.of(
                    "timer=131.4ms -> byte-threshold=2276B",
                    "timer=116.8ms,periodic=true -> byte-threshold=2367B"),
                SCENARIO,
                ACCEPTING))
        .isSameAs(SCENARIO);
  }

  @Test
  void compressorModelsAreToldApartAsTheClientThatAcceptsTheCoding() {
    assertThat(PairReplays.tellAs(compressing(), COMPRESSORS, SCENARIO, ACCEPTING))
        .isSameAs(ACCEPTING);
    assertThat(PairReplays.tellAs(compressing(), COMPRESSORS, SCENARIO, null))
        .as("no accepting pass was measured")
        .isNull();
  }

  /**
   * s257: `byte-threshold=3008B -> byte-threshold=4782B` under a stalled host, its 605 B pinning
   * cell's first frame 108.7 ms late, fitted no pair and was left as one threshold refused, with no
   * word of the stall.
   */
  @Test
  void noPairFittingCellsThisHostStalledThroughNamesTheStall() {
    FlushTrigger refused =
        new FlushTrigger(
            "x",
            TriggerKind.INCONCLUSIVE,
            null,
            null,
            null,
            null,
            "not verified: the model byte-threshold=6039B reproduces 6 of 7 cells",
            List.of(),
            List.of());
    String stall = "frame_size=605B interval=10ms frames=80: 1 over 20 ms, longest 36.1 ms";
    assertThat(PairReplays.noPairFound(refused, List.of(), List.of(), stall).verdict())
        .contains("this host stalled while the cells were measured (" + stall + ")");
    assertThat(PairReplays.noPairFound(refused, List.of(), List.of(), null).verdict())
        .as("no stall: nothing said of one")
        .doesNotContain("this host stalled");
    assertThat(
            PairReplays.noPairFound(
                    refused,
                    List.of("byte-threshold=1168B -> byte-threshold=5393B: 2 of 8 cells"),
                    List.of(),
                    stall)
                .verdict())
        .as("pairs tried and refused on cells of their own: their refusal stands")
        .doesNotContain("this host stalled");
  }

  @Test
  void modelsBesideACompressorWithoutItAsAStageAreNotToldApart() {
    List<String> mixed = List.of(COMPRESSORS.get(0), "timer=200.3ms,periodic=true -> nagle");
    assertThat(PairReplays.tellAs(compressing(), mixed, SCENARIO, ACCEPTING)).isNull();
  }
}
