package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** How the map tests read the models an `inconclusive` answer names as replaying alike. */
class AlikeVerdictTest {
  /** The answer s136 failed: two chains, then the cell measured that told them nothing. */
  static final String VERDICT =
      "compression (gzip) seen: clients that accept gzip: inconclusive: two models of two"
          + " mechanisms each reproduce every cell alike: timer=195.5ms,periodic=true ->"
          + " compress=gzip,flush=next and timer=195.5ms,periodic=true ->"
          + " compress=gzip,flush=timer,after=159.9ms (frame_size=60B interval=391ms frames=8,"
          + " where their simulations part, was measured and both reproduce it) — clients that do"
          + " not: periodic timer: releases every 195.5 ms on its own clock";

  private static JsonNode inconclusive(String verdict) {
    return new ObjectMapper()
        .createObjectNode()
        .put("kind", "inconclusive")
        .put("verdict", verdict);
  }

  @Test
  void theChainsAreReadUpToTheCellThatWasMeasuredBesideThem() {
    String timed = "timer=([0-9.]+)ms,periodic=true -> compress=gzip,flush=timer,after=([0-9.]+)ms";
    assertThat(MapTestBase.namedAmongAlike(inconclusive(VERDICT), timed, 195, 156)).isTrue();
    assertThatThrownBy(() -> MapTestBase.namedAmongAlike(inconclusive(VERDICT), timed, 195, 120))
        .as("a value 25 % off the hidden one")
        .isInstanceOf(AssertionError.class);
    assertThat(
            MapTestBase.namedAmongAlike(
                inconclusive(
                    "two models of two mechanisms each reproduce every cell alike: timer=50ms ->"
                        + " cork and timer=50ms -> nagle (a cell of frame_size=60B interval=20ms"
                        + " frames=40 would tell them apart)"),
                "timer=([0-9.]+)ms -> nagle",
                50))
        .isTrue();
  }
}
