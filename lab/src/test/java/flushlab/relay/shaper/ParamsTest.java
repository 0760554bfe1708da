package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.coding.ContentCoding;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A shaper's choice is declared with its enum, written as the constant's text and read back as the
 * constant: no list of words kept in step with an enum by hand, no index compared with a number.
 */
class ParamsTest {
  @Test
  void aChoiceIsReadBackAsTheConstantItsTextNames() {
    assertThat(Compress.FLUSH.choices())
        .containsExactly("each", "none", "bytes", "timer", "input", "next", "end");
    assertThat(Compress.FLUSH.defaultValue()).isEqualTo("each");
    Params p =
        new Params(
            "compress",
            Map.of(
                Compress.FLUSH, Compress.FLUSH.parse("compress", "Next"),
                Compress.ALGO, Compress.ALGO.parse("compress", "br")));
    assertThat(p.choice(Compress.FLUSH, Compress.Flush.class)).isEqualTo(Compress.Flush.NEXT);
    assertThat(p.choice(Compress.ALGO, ContentCoding.class)).isEqualTo(ContentCoding.BR);
    assertThatThrownBy(() -> p.choice(Compress.FLUSH, Compress.Types.class))
        .hasMessageContaining("flush is not a choice of Types");
    assertThatThrownBy(() -> Compress.FLUSH.parse("compress", "sometimes"))
        .hasMessageContaining("flush=sometimes")
        .hasMessageContaining("one of each, none, bytes, timer, input, next, end");
  }

  @Test
  void aSpecWithChoicesMakesItsShaper() {
    assertThat(
            ShaperRegistry.parseChain(
                "compress=br,flush=next,types=text,others=decoded -> window=32KiB,update=bytes,bytes=8KiB"
                    + " -> stream-if=spring-cloud-gateway,otherwise=drain -> reframe=drop"))
        .hasSize(4);
  }
}
