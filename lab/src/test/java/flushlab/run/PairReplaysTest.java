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

  @Test
  void modelsBesideACompressorWithoutItAsAStageAreNotToldApart() {
    List<String> mixed = List.of(COMPRESSORS.get(0), "timer=200.3ms,periodic=true -> nagle");
    assertThat(PairReplays.tellAs(compressing(), mixed, SCENARIO, ACCEPTING)).isNull();
  }
}
