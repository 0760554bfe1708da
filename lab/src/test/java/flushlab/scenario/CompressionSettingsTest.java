package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.ClientProfile;
import flushlab.coding.ContentCoding;
import flushlab.coding.FlushPolicy;
import flushlab.stream.CacheControl;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * encoding, flush and cache_control are emitter settings like the others: typed into each cell,
 * sweepable, shown as written.
 */
class CompressionSettingsTest {
  @Test
  void aSweepOfCodingsAndFlushPoliciesMakesTypedCells() throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: t
        emitter: {frames: 10, cache_control: no-transform}
        client: {profile: browser}
        sweep:
          encoding: [gzip, br]
          flush: [each, "bytes:1KiB", "ms:200"]
        targets:
          - {name: direct, kind: direct}
        """);
    List<Cell> cells = s.cells();
    assertThat(cells).hasSize(6);
    assertThat(cells)
        .allMatch(c -> c.stream().compression().cacheControl() == CacheControl.NO_TRANSFORM)
        .allMatch(c -> c.profile() == ClientProfile.BROWSER);
    assertThat(cells.get(0).stream().compression().coding()).isEqualTo(ContentCoding.GZIP);
    assertThat(cells.get(1).stream().compression().flush()).isEqualTo(FlushPolicy.bytes(1024));
    assertThat(cells.get(2).stream().compression().flush()).isEqualTo(FlushPolicy.millis(200));
    assertThat(cells.get(5).stream().compression().coding()).isEqualTo(ContentCoding.BR);
    assertThat(cells.get(1).label()).isEqualTo("encoding=gzip flush=bytes:1KiB");
    assertThat(cells.get(1).stream().toQuery())
        .contains("encoding=gzip")
        .contains("flush=bytes:1024")
        .contains("cache_control=no-transform");
  }
}
