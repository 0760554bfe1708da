package flushlab.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.relay.shaper.ShaperRegistry;
import flushlab.relay.shaper.ShaperSpecException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShaperSpecTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "bytethreshold=2KiB|unknown shaper 'bytethreshold' (known: passthrough, drain-and-flush, byte-threshold",
        "byte-threshold=2000|shaper 'byte-threshold': bytes=2000: '2000' is not a size with a unit",
        "byte-threshold=0B|bytes=0B is out of range (a size 1B..64MiB)",
        "byte-threshold|needs bytes= (a size 1B..64MiB)",
        "timer=200|after=200: '200' is not a duration with a unit",
        "timer=2m|after=2m is out of range (a duration 1ms..60s)",
        "timer=200ms,periodic=maybe|periodic=maybe: 'maybe' is not true or false",
        "timer=200ms,colour=red|shaper 'timer' has no parameter 'colour' (parameters: after, periodic, cap, x-accel)",
        "drain-and-flush,x-accel=sometimes|'sometimes' is not one of ignore, honor",
        "passthrough=1|shaper 'passthrough' takes no parameters",
        "bandwidth=64KiB|rate=64KiB: '64KiB' is not a rate",
        "stall,for=1s|give exactly one of after-bytes= and after=",
        "reset,after-bytes=1KiB,after=1s|give exactly one of after-bytes= and after="
      })
  void badSpecsAreRefusedNamingTheShaperParameterUnitAndRange(String spec, String message) {
    assertThatThrownBy(() -> ShaperRegistry.parse(spec))
        .isInstanceOf(ShaperSpecException.class)
        .hasMessageContaining(message);
  }

  @Test
  void everyRegisteredExampleParses() {
    for (var type : ShaperRegistry.types()) {
      assertThat(ShaperRegistry.parse(type.example()).type()).isEqualTo(type);
    }
  }

  /**
   * A chain on one line, as the map writes its models: each stage parsed in order, an error naming
   * its stage.
   */
  @Test
  void aChainOnOneLineParsesStageByStage() {
    var chain = ShaperRegistry.parseChain("byte-threshold=4KiB -> nagle");
    assertThat(chain).extracting(s -> s.type().name()).containsExactly("byte-threshold", "nagle");
    assertThat(ShaperRegistry.parseChain("timer=120.5ms,periodic=true"))
        .singleElement()
        .extracting(s -> s.type().name())
        .isEqualTo("timer");
    assertThatThrownBy(() -> ShaperRegistry.parseChain("byte-threshold=4KiB -> nagel"))
        .isInstanceOf(ShaperSpecException.class)
        .hasMessageContaining("stage 2 of 2")
        .hasMessageContaining("unknown shaper 'nagel'");
    assertThatThrownBy(() -> ShaperRegistry.parseChain("byte-threshold=4KiB ->"))
        .hasMessageContaining("stage 2 of 2: empty shaper spec");
  }
}
