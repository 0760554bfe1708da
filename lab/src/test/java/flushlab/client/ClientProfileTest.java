package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.coding.ContentCoding;
import flushlab.http.Header;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client profile is the request head that client sends: its headers in its order, the user's own
 * replacing any of the same name.
 */
class ClientProfileTest {
  private static String head(RequestPlan p) {
    return new String(p.bytes(true), StandardCharsets.ISO_8859_1);
  }

  @Test
  void eachProfileSendsItsHeadersInItsOrder() {
    RequestPlan plan = RequestPlan.get("http://127.0.0.1:8080/sse?frames=3");
    for (ClientProfile c : ClientProfile.values()) {
      String head = head(plan.withProfile(c));
      int at = 0;
      for (Header h : c.headers()) {
        int i = head.indexOf("\r\n" + h.line() + "\r\n");
        assertThat(i).as("%s sends %s after the header before it", c, h.line()).isGreaterThan(at);
        at = i;
      }
      assertThat(head)
          .as(c.text())
          .startsWith("GET /sse?frames=3 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n");
    }
  }

  @Test
  void theDefaultIsTheLabsOwnRequestWithoutAcceptEncoding() {
    RequestPlan plan = RequestPlan.get("http://127.0.0.1:8080/sse");
    assertThat(plan.profile()).isEqualTo(ClientProfile.BARE);
    assertThat(head(plan))
        .isEqualTo(
            "GET /sse HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: flushlab\r\nAccept: text/event-stream\r\n\r\n");
    assertThat(plan.acceptedCodings()).isEmpty();
    assertThat(plan.withProfile(ClientProfile.CURL).acceptedCodings())
        .as("curl without --compressed")
        .isEmpty();
  }

  @Test
  void whatAProfileAcceptsIsWhatTheClientDecodesAndAUserHeaderWins() {
    RequestPlan browser =
        RequestPlan.get("http://127.0.0.1:8080/sse").withProfile(ClientProfile.BROWSER);
    assertThat(browser.acceptedCodings()).isEqualTo(EnumSet.allOf(ContentCoding.class));
    assertThat(
            RequestPlan.get("http://h:1/sse")
                .withProfile(ClientProfile.OPENAI_PYTHON)
                .acceptedCodings())
        .isEqualTo(EnumSet.of(ContentCoding.GZIP, ContentCoding.DEFLATE));
    RequestPlan mine = browser.withHeaders(List.of(new Header("Accept-Encoding", "identity")));
    assertThat(mine.acceptedCodings()).isEmpty();
    String head = head(mine);
    assertThat(head)
        .contains("\r\nAccept-Encoding: identity\r\n")
        .doesNotContain("gzip, deflate, br, zstd");
    assertThat(head.indexOf("Accept-Encoding"))
        .as("sent once")
        .isEqualTo(head.lastIndexOf("Accept-Encoding"));
  }

  @Test
  void anSdkProfileKeepsTheLabsJsonBodyAndItsOwnAccept() {
    RequestPlan chat =
        RequestPlan.chat("127.0.0.1", 8080, 3, 0, 10).withProfile(ClientProfile.OPENAI_NODE);
    String head = head(chat);
    assertThat(head)
        .startsWith("POST /v1/chat/completions HTTP/1.1\r\n")
        .contains("\r\naccept: application/json\r\n")
        .contains("\r\nuser-agent: OpenAI/JS 6.49.0\r\n")
        .contains("\r\nContent-Type: application/json\r\n")
        .doesNotContain("text/event-stream");
  }
}
