package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.map.TriggerKind;
import flushlab.stream.Transfer;
import flushlab.targets.TargetKind;
import org.junit.jupiter.api.Test;

/**
 * Kinds are enums inside the lab and words at its edges: read once, written as JSON and in messages
 * by their text.
 */
class NamedTest {
  @Test
  void aKindIsWrittenAndReadAsItsText() throws Exception {
    assertThat(TriggerKind.BYTE_THRESHOLD.text()).isEqualTo("byte-threshold");
    assertThat(Json.MAPPER.writeValueAsString(TriggerKind.THRESHOLD_OR_TIMER))
        .isEqualTo("\"threshold-or-timer\"");
    assertThat(Json.MAPPER.writeValueAsString(TargetKind.DIRECT)).isEqualTo("\"direct\"");
    assertThat(Named.parse(Transfer.class, " Chunked-Always ")).isEqualTo(Transfer.CHUNKED_ALWAYS);
    assertThat(Named.parse(TargetKind.class, "proxy")).isNull();
    assertThat(Named.texts(TargetKind.class))
        .containsExactly("direct", "relay", "process", "external");
    assertThatThrownBy(() -> Named.parseOrThrow(Transfer.class, "gzip"))
        .hasMessage("'gzip' is not one of chunked, close, chunked-always, length");
  }
}
