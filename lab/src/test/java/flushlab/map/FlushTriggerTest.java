package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FlushTriggerTest {

  /**
   * A model verified while the budget cut its twins' replays short stands, and says so: `map
   * --shape 'timer=150ms -> compress=gzip,flush=bytes,bytes=800B' --client browser` (2026-12-05)
   * gave an input-count compressor, verified, with two output-count candidates left unreplayed.
   */
  @Test
  void aModelWhoseTwinsTheBudgetLeftUnreplayedStandsAndSaysSo() {
    FlushTrigger hold =
        new FlushTrigger(
            "t", TriggerKind.TIMER, null, null, 150.3, null, "timer", List.of(), List.of());
    FlushTrigger noted =
        hold.withUntriedForBudget(
            List.of(
                "compress=gzip,flush=bytes,bytes=1168B -> timer=150.3ms",
                "timer=150.3ms -> compress=gzip,flush=bytes,bytes=888B"));
    assertThat(noted.kind()).isEqualTo(TriggerKind.TIMER);
    assertThat(noted.timerMs()).isEqualTo(150.3);
    assertThat(noted.verdict())
        .startsWith("timer; ")
        .contains(
            "compress=gzip,flush=bytes,bytes=1168B -> timer=150.3ms and timer=150.3ms ->"
                + " compress=gzip,flush=bytes,bytes=888B could be replayed")
        .contains("whether this model alone reproduces the target is not known");
    assertThat(noted.next()).containsExactly("map again with a longer --budget to replay them too");
  }

  /**
   * A model whose twin's telling cell this host's stalls spoiled in every run stands, and says that
   * twin is not ruled out, in the words a reader (and the suite) looks for: a suite's `one-late ->
   * timer=229ms` was given as the hold alone, that cell's two runs excluded, saying nothing.
   */
  @Test
  void aModelWhoseTwinsCellTheHostsStallsSpoiledStandsAndSaysSo() {
    FlushTrigger hold =
        new FlushTrigger(
            "t", TriggerKind.TIMER, null, null, 229.4, null, "timer", List.of(), List.of());
    FlushTrigger noted =
        hold.withTwinUnchecked(
            "frame_size=60B interval=345ms frames=8: the client's host stalled 9 ms at 2.42 s");
    assertThat(noted.kind()).isEqualTo(TriggerKind.TIMER);
    assertThat(noted.timerMs()).isEqualTo(229.4);
    assertThat(noted.verdict())
        .startsWith("timer; this host stalled in every run of the cell that would tell this model")
        .contains("frame_size=60B interval=345ms frames=8")
        .endsWith("that one is not ruled out");
    assertThat(noted.next()).containsExactly("map again on a quieter host");
  }

  /**
   * An answer made from one that already says no compression was seen (models named alike keep the
   * answer's evidence) says it once: `map --shape 'timer=52ms -> cork'` printed the line twice.
   */
  @Test
  void noCompressionIsSaidOnceWhenSaidAgain() {
    FlushTrigger hold =
        new FlushTrigger(
            "t", TriggerKind.TIMER, null, null, 150.3, null, "timer", List.of(), List.of());
    CompressionFinding none =
        CompressionFinding.of(null, "browser, accepting gzip", null, "bare", hold, null);
    FlushTrigger twice = hold.withCompression(none).withCompression(none);
    assertThat(twice.evidence().stream().filter(e -> e.startsWith("compression: none"))).hasSize(1);
  }
}
