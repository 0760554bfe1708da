package flushlab.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NDJSON lines split anywhere: the lab's {"data":"..."} lines hand on their data, other lines
 * themselves, blank lines nothing.
 */
class NdjsonParserTest {
  @Test
  void linesSplitAtEveryByteGiveTheSameEvents() {
    byte[] body =
        "{\"data\":\"0 1 a\"}\n\r\n{\"other\":1}\r\n{\"data\":\"2 3 b\"}\n"
            .getBytes(StandardCharsets.US_ASCII);
    for (int cut = 0; cut <= body.length; cut++) {
      List<String> events = new ArrayList<>();
      NdjsonParser p =
          new NdjsonParser(
              (data, len) -> events.add(new String(data, 0, len, StandardCharsets.US_ASCII)));
      p.feed(body, 0, cut);
      p.feed(body, cut, body.length - cut);
      assertThat(events).as("cut at %d", cut).containsExactly("0 1 a", "{\"other\":1}", "2 3 b");
    }
  }

  @Test
  void aLineOverTheCapIsAnError() {
    NdjsonParser p = new NdjsonParser((data, len) -> {}, 1024);
    byte[] big = new byte[2048];
    Arrays.fill(big, (byte) 'x');
    assertThatThrownBy(() -> p.feed(big, 0, big.length))
        .isInstanceOf(HttpParseException.class)
        .hasMessageContaining("1024");
  }
}
