package flushlab.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpParsersTest {

  static final class Recorder implements HttpResponseParser.Listener {
    final List<Integer> statuses = new ArrayList<>();
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    int completes;

    public void onHead(int status, String reason, Headers headers) {
      statuses.add(status);
    }

    public void onBody(byte[] b, int off, int len) {
      body.write(b, off, len);
    }

    public void onComplete() {
      completes++;
    }
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void twoKeepAliveResponsesSplitAtEveryByte() {
    byte[] wire =
        ascii(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: y\r\n\r\n"
                + "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nnop");
    for (int cut = 0; cut <= wire.length; cut++) {
      Recorder r = new Recorder();
      HttpResponseParser p = new HttpResponseParser(r);
      p.feed(wire, 0, cut);
      p.feed(wire, cut, wire.length - cut);
      assertThat(r.statuses).as("cut %d", cut).containsExactly(200, 404);
      assertThat(r.body.toString(StandardCharsets.US_ASCII)).isEqualTo("hello worldnop");
      assertThat(r.completes).isEqualTo(2);
      assertThat(p.idle()).isTrue();
    }
  }

  @Test
  void chunkSizeLinesAreReadInEveryFormAndRefusedWhenMalformed() {
    for (String size : new String[] {"A", "a", "0a", " a ", "a;name=value", "a ;x", "0000a"}) {
      Recorder r = new Recorder();
      byte[] wire =
          ascii(
              "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                  + size
                  + "\r\n0123456789\r\n0\r\n\r\n");
      new HttpResponseParser(r).feed(wire, 0, wire.length);
      assertThat(r.body.toString(StandardCharsets.US_ASCII))
          .as("size line '%s'", size)
          .isEqualTo("0123456789");
      assertThat(r.completes).isEqualTo(1);
    }
    for (String bad : new String[] {"", "g", "-5", "5x", "1234567890abcdef0"}) {
      byte[] wire =
          ascii(
              "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                  + bad
                  + "\r\nhello\r\n0\r\n\r\n");
      assertThatThrownBy(() -> new HttpResponseParser(new Recorder()).feed(wire, 0, wire.length))
          .as("size line '%s'", bad)
          .isInstanceOf(HttpParseException.class)
          .hasMessageContaining("malformed chunk size");
    }
  }

  @Test
  void closeDelimitedBodyEndsAtClose() {
    Recorder r = new Recorder();
    HttpResponseParser p = new HttpResponseParser(r);
    byte[] wire =
        ascii(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: x\n\n");
    p.feed(wire, 0, wire.length);
    assertThat(r.completes).isZero();
    assertThat(p.connectionClosed()).isTrue();
    assertThat(r.completes).isEqualTo(1);
  }

  @Test
  void aCutChunkedBodyIsNotAComplete() {
    Recorder r = new Recorder();
    HttpResponseParser p = new HttpResponseParser(r);
    byte[] wire = ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel");
    p.feed(wire, 0, wire.length);
    assertThat(p.connectionClosed()).isFalse();
  }

  @Test
  void somethingThatIsNotHttpIsNamedAsSuch() {
    HttpResponseParser p = new HttpResponseParser(new Recorder());
    byte[] wire = ascii("SSH-2.0-OpenSSH_9.2\r\n");
    assertThatThrownBy(() -> p.feed(wire, 0, 3))
        .isInstanceOf(HttpParseException.class)
        .hasMessageContaining("not an HTTP response")
        .matches(e -> ((HttpParseException) e).notHttp());
  }

  /**
   * An h2c-only server answers an HTTP/1.1 request with its SETTINGS: said as such, not as bytes
   * that are not HTTP.
   */
  @Test
  void anHttp2FrameIsNamedAsTheWayThePeerSpeaks() {
    // SETTINGS with two settings (12 B) on stream 0, as nginx's h2c listener sends first
    byte[] settings = {0, 0, 12, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, (byte) 128, 0, 4, 0, 1, 0, 0};
    assertThatThrownBy(
            () -> new HttpResponseParser(new Recorder()).feed(settings, 0, settings.length))
        .isInstanceOf(HttpParseException.class)
        .hasMessage(
            "an HTTP/2 SETTINGS frame where an HTTP/1.x response was due: the peer speaks HTTP/2 by prior knowledge (h2c) only")
        .matches(
            e -> ((HttpParseException) e).notHttp() && ((HttpParseException) e).speaksHttp2Only());
    byte[] goaway = {0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    assertThatThrownBy(() -> new HttpResponseParser(new Recorder()).feed(goaway, 0, goaway.length))
        .hasMessageStartingWith("an HTTP/2 GOAWAY frame");
    // a frame on a stream, or too few bytes to tell, is only not HTTP
    byte[] data = {0, 0, 1, 0, 0, 0, 0, 0, 1, 'x'};
    assertThatThrownBy(() -> new HttpResponseParser(new Recorder()).feed(data, 0, data.length))
        .hasMessageStartingWith("not an HTTP response")
        .matches(e -> !((HttpParseException) e).speaksHttp2Only());
    assertThatThrownBy(() -> new HttpResponseParser(new Recorder()).feed(settings, 0, 5))
        .hasMessageStartingWith("not an HTTP response");
  }

  @Test
  void requestBodyIsReadByContentLengthAcrossReads() {
    String body =
        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"pi_tokens\":3}";
    byte[] wire =
        ascii(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                + body.length()
                + "\r\n\r\n"
                + body
                + "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
    for (int cut = 1; cut < wire.length; cut += 3) {
      List<HttpRequestParser.Request> got = new ArrayList<>();
      HttpRequestParser p = new HttpRequestParser(got::add);
      for (int i = 0; i < wire.length; i += cut) p.feed(wire, i, Math.min(cut, wire.length - i));
      assertThat(got).hasSize(2);
      assertThat(new String(got.get(0).body(), StandardCharsets.US_ASCII)).isEqualTo(body);
      assertThat(got.get(1).target()).isEqualTo("/v1/models");
    }
  }

  @Test
  void oversizedRequestBodyIsRefusedWithItsSize() {
    HttpRequestParser p = new HttpRequestParser(r -> {});
    byte[] wire = ascii("POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n");
    assertThatThrownBy(() -> p.feed(wire, 0, wire.length))
        .hasMessageContaining("99999999")
        .hasMessageContaining("limit");
  }
}
