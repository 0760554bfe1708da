package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * `flushlab map` against a holding stage beside a compressor that holds too, drawn at random (a
 * class of its own so that the suite's forks share the map's long tests evenly).
 */
class MapCompressorStacksTest extends MapTestBase {
  /**
   * A holding stage beside a compressor that holds too, drawn at random, asked as a browser: a byte
   * threshold, a hold timer or a clock, then a compressor that flushes each write only when the
   * next one comes (`flush=next`); or a compressor flushing on a timer of its own, either side of a
   * hold timer or of a clock, or every N bytes of its input in front of a clock, or one flushing on
   * the next write in front of a hold or a clock. The plain client sees the stage, the accepting
   * one both, which no one mechanism explains. The map replays the two stages and gives them only
   * as they reproduced every cell.
   */
  @Test
  void aHoldingStageBesideACompressorThatHoldsTooIsModelledAsBoth() throws Exception {
    int draw = between(0, 8);
    int n = draw == 0 ? between(1500, 4000) : between(90, 200);
    String hidden;
    String model;
    double[] values = null;
    if (draw == 8) {
      // a compressor flushing on the next write in front of a hold or a clock: each event reaches
      // the stage an interval late (the other order delays a release by a release)
      String stage = "timer=" + n + "ms" + (between(0, 1) == 1 ? ",periodic=true" : "");
      hidden = "compress=gzip,flush=next -> " + stage;
      model = "compress=gzip,flush=next -> " + stage.replace(n + "ms", "([0-9.]+)ms");
    } else if (draw == 7) {
      // a compressor flushing every N bytes of its input in front of a clock, which the accepting
      // pass reads as an encoder
      int period = between(120, 250);
      int bytes = between(1500, 4000);
      hidden =
          "compress=gzip,flush=input,bytes=" + bytes + "B -> timer=" + period + "ms,periodic=true";
      model = "compress=gzip,flush=input,bytes=(\\d+)B -> timer=([0-9.]+)ms,periodic=true";
      values = new double[] {bytes, period};
    } else if (draw >= 5) {
      // a compressor on a timer beside a clock, either side of it: its timer shorter than the
      // period
      int period = between(120, 250);
      int timer = between(40, period * 4 / 5);
      String compressor = "compress=gzip,flush=timer,after=" + timer + "ms";
      String clock = "timer=" + period + "ms,periodic=true";
      hidden = draw == 5 ? compressor + " -> " + clock : clock + " -> " + compressor;
      model =
          draw == 5
              ? "compress=gzip,flush=timer,after=([0-9.]+)ms -> timer=([0-9.]+)ms,periodic=true"
              : "timer=([0-9.]+)ms,periodic=true -> compress=gzip,flush=timer,after=([0-9.]+)ms";
      values = draw == 5 ? new double[] {timer, period} : new double[] {period, timer};
    } else if (draw < 3) {
      hidden =
          (draw == 0
                  ? "byte-threshold=" + n + "B"
                  : draw == 1 ? "timer=" + n + "ms" : "timer=" + n + "ms,periodic=true")
              + " -> compress=gzip,flush=next";
      model =
          (draw == 0
                  ? "byte-threshold=(\\d+)B"
                  : draw == 1 ? "timer=([0-9.]+)ms" : "timer=([0-9.]+)ms,periodic=true")
              + " -> compress=gzip,flush=next";
    } else {
      // the compressor's timer longer than the hold's, as a framework's flush interval is
      n = between(30, 60);
      String compressor = "compress=gzip,flush=timer,after=" + (2 * n) + "ms";
      hidden =
          draw == 3 ? compressor + " -> timer=" + n + "ms" : "timer=" + n + "ms -> " + compressor;
      model =
          draw == 3
              ? "compress=gzip,flush=timer,after=[0-9.]+ms -> timer=([0-9.]+)ms"
              : "timer=([0-9.]+)ms -> compress=gzip,flush=timer,after=[0-9.]+ms";
    }
    // the input-byte compressor's accepting pass reads as an encoder, whose model only its replay
    // refuses: that draw is mapped as users do, replayed
    List<String> flags = List.of("--shape", hidden, "--client", "browser");
    JsonNode a = draw == 7 ? mapReplayed(flags) : mapWith(flags);
    // the compressor's timer twice the hold's can release alike in either order on every cell, and
    // a hold then a compressor flushing on the next write alike with a compressor on a timer in
    // front of that hold: then all are named, the hidden one among them, and where two are, one
    // flushing on the next write and the other on its timer, the cell that tells them apart
    if (values == null) values = new double[] {n};
    if (namedAmongAlike(a, model, values)) {
      String verdict = a.get("verdict").asText();
      // (named as the cell to measure, or as measured where both reproduced it too: the map
      // measures it as the accepting client)
      if (verdict.contains("two models of two mechanisms")
          && verdict.contains("flush=next")
          && verdict.contains("flush=timer"))
        assertThat(verdict)
            .containsAnyOf("would tell them apart", "was measured and both reproduce it");
      return;
    }
    modelIs(a, model, values);
    assertThat(a.get("compression").get("others").get("then").isNull()).isTrue();
    assertThat(a.get("compression").get("verdict").asText()).startsWith("compression is the cause");
    assertThat(a.get("replay").asText()).as(hidden).startsWith("verified: the model ");
  }
}
