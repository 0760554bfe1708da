package flushlab.emitter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.Await;
import flushlab.LabFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.RequestPlan;
import flushlab.core.Json;
import flushlab.http.SseEventParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** What a hostile or careless client can do to the emitter, and what the emitter does back. */
class EmitterLimitsTest {

  /** A raw loopback connection to the emitter, read with a timeout so a test never hangs. */
  static final class Raw implements AutoCloseable {
    final Socket socket = new Socket();

    Raw(int port) throws IOException {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(10_000);
    }

    Raw send(String s) throws IOException {
      socket.getOutputStream().write(s.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      return this;
    }

    /** Everything until the emitter closes the connection. */
    String readToClose() throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] b = new byte[65536];
      for (int n; (n = in.read(b)) >= 0; ) out.write(b, 0, n);
      return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void oneConnectionOverTheCapIsAnswered503AndTheNextOneAfterAFreeSlotIsServed() throws Exception {
    try (LabFixture lab =
        new LabFixture(EmitterOptions.loopback(0).withLimits(2, 10_000_000_000L), 2)) {
      int port = lab.emitter.port();
      try (Raw a = new Raw(port);
          Raw b = new Raw(port)) {
        a.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); // both count once accepted
        try (Raw third = new Raw(port)) {
          assertThat(third.readToClose())
              .startsWith("HTTP/1.1 503")
              .contains("too many connections (at most 2 at once");
        }
      }
      // the two above are closed: once the emitter has seen that, a new connection is served
      Await.until(
          "the emitter saw both connections close", 5000, () -> lab.emitter.openConnections() == 0);
      try (Raw again = new Raw(port)) {
        assertThat(
                again
                    .send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .readToClose())
            .startsWith("HTTP/1.1 200");
      }
    }
  }

  /**
   * With a listener per event loop (as `flushlab emitter` runs), the listeners share one port, one
   * connection cap and one audit registry: the cap counts connections on every loop together, and
   * every stream, whichever loop served it, has its audit.
   */
  @Test
  void listenersOnSeveralLoopsShareTheCapAndTheAudits() throws Exception {
    try (LabFixture lab =
        new LabFixture(
            EmitterOptions.loopback(0).withLimits(2, 10_000_000_000L).withListeners(2), 2)) {
      int port = lab.emitter.port();
      // each loop's listener takes the connections the kernel hashes to it (SO_REUSEPORT): all 32
      // on one of two listeners would be a 1-in-2^31 event
      for (int i = 0; i < 32; i++) {
        try (Raw r = new Raw(port)) {
          assertThat(
                  r.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                      .readToClose())
              .startsWith("HTTP/1.1 200");
        }
      }
      assertThat(lab.emitter.acceptedPerListener())
          .as("connections reach both listeners")
          .hasSize(2)
          .allMatch(n -> n > 0);
      Await.until(
          "the emitter saw the connections close", 5000, () -> lab.emitter.openConnections() == 0);
      try (Raw a = new Raw(port);
          Raw b = new Raw(port)) {
        a.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        // Two loops accept in their own order: let both take their connection before the third.
        Await.until(
            "the emitter admitted both connections",
            5000,
            () -> lab.emitter.openConnections() == 2);
        try (Raw third = new Raw(port)) {
          assertThat(third.readToClose()).startsWith("HTTP/1.1 503").contains("at most 2 at once");
        }
      }
      Await.until(
          "the emitter saw the connections close", 5000, () -> lab.emitter.openConnections() == 0);
    }
    try (LabFixture lab = new LabFixture(EmitterOptions.loopback(0).withListeners(2), 2)) {
      BatchResult r =
          lab.measure(
              RequestPlan.get(lab.sseUrl("frames=20&interval=2ms")),
              ClientOptions.single().withRequests(8, 8));
      assertThat(r.streamsOk()).as(r.oneLine()).isEqualTo(8);
      for (long id : r.streamIds())
        assertThat(lab.auditOf(id)).as("stream %d audited", id).isNotNull();
    }
  }

  /** A client sending one header line every so often (slowloris) is answered 408 and dropped. */
  @Test
  void aRequestThatDoesNotCompleteWithinTheTimeoutGets408() throws Exception {
    try (LabFixture lab =
            new LabFixture(EmitterOptions.loopback(0).withLimits(16, 300_000_000L), 2);
        Raw slow = new Raw(lab.emitter.port())) {
      slow.send("GET /sse HTTP/1.1\r\n").send("Host: x\r\n"); // and never the blank line
      assertThat(slow.readToClose())
          .startsWith("HTTP/1.1 408")
          .contains("not complete within 300ms");
    }
  }

  @Test
  void aConnectionOnWhichNothingMovesIsClosedButAStreamLongerThanTheIdleTimeoutIsNot()
      throws Exception {
    EmitterOptions options = EmitterOptions.loopback(0).withIdleTimeoutNanos(300_000_000L);
    try (LabFixture lab = new LabFixture(options, 2);
        Raw idle = new Raw(lab.emitter.port());
        Raw streaming = new Raw(lab.emitter.port())) {
      // 12 frames 100 ms apart: the stream outlasts the idle timeout almost fourfold, and its
      // writes are what keeps the connection alive (the client sends nothing after its request).
      streaming.send(
          "GET /sse?frames=12&size=60&interval=100ms HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      long start = System.nanoTime();
      assertThat(idle.readToClose()).as("a connection that never sent a request").isEmpty();
      long idleClosedAfterMs = (System.nanoTime() - start) / 1_000_000;
      String body = streaming.readToClose();
      assertThat(body)
          .startsWith("HTTP/1.1 200")
          .contains("0\r\n\r\n"); // the last chunk: it ended whole
      assertThat(idleClosedAfterMs)
          .as("closed after the idle timeout, not before")
          .isGreaterThanOrEqualTo(290);
    }
  }

  @Test
  void contentLengthMustBeOneWholeNumber() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n";
      try (Raw r = new Raw(lab.emitter.port())) {
        assertThat(r.send(head + "Content-Length: 5\r\nContent-Length: 50\r\n\r\n{}").readToClose())
            .startsWith("HTTP/1.1 400")
            .contains("more than one Content-Length");
      }
      try (Raw r = new Raw(lab.emitter.port())) {
        assertThat(r.send(head + "Content-Length: -1\r\n\r\n").readToClose())
            .startsWith("HTTP/1.1 400")
            .contains("malformed Content-Length \"-1\"");
      }
      try (Raw r = new Raw(lab.emitter.port())) {
        assertThat(r.send(head + "Content-Length: 2000000\r\n\r\n").readToClose())
            .startsWith("HTTP/1.1 413");
      }
    }
  }

  /**
   * A body over the limit, sent whole by a client that writes before it reads (as curl and most
   * SDKs do): the 413 must reach it, not a reset for the bytes the emitter did not read.
   */
  @Test
  void aBodyOverTheLimitIsAnswered413WhileTheClientStillSendsIt() throws Exception {
    try (LabFixture lab = new LabFixture();
        Raw r = new Raw(lab.emitter.port())) {
      int size = 2 << 20;
      r.send(
          "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
              + size
              + "\r\n\r\n");
      Thread writer =
          new Thread(
              () -> {
                byte[] chunk = new byte[16384];
                Arrays.fill(chunk, (byte) 'x');
                try {
                  for (int sent = 0; sent < size; sent += chunk.length)
                    r.socket.getOutputStream().write(chunk);
                } catch (IOException e) {
                  // the emitter closed once it lingered: what matters is what was read
                }
              },
              "body-writer");
      writer.start();
      String answer;
      try {
        answer = r.readToClose();
      } finally {
        writer.join(15_000);
      }
      assertThat(answer).startsWith("HTTP/1.1 413").contains("over the limit");
    }
  }

  @Test
  void aResponseHeaderThatWouldFrameTheResponseIsRefused() throws Exception {
    try (LabFixture lab = new LabFixture();
        Raw r = new Raw(lab.emitter.port())) {
      String answer =
          r.send(
                  "GET /sse?frames=2&header=Content-Length:5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
              .readToClose();
      assertThat(answer)
          .startsWith("HTTP/1.1 400")
          .contains("Content-Length is written by the emitter itself")
          .doesNotContain("Transfer-Encoding");
    }
  }

  /** A model name is data in a JSON string: CR and LF cannot end an event or start a forged one. */
  @Test
  void aModelNameWithLineBreaksCannotInjectEvents() throws Exception {
    String model = "m\r\n\r\ndata: {\"injected\":true}\n\nevent: x";
    ObjectNode node =
        Json.MAPPER
            .createObjectNode()
            .put("model", model)
            .put("stream", true)
            .put("pi_tokens", 3)
            .put("pi_delay_ms", 0);
    node.putArray("messages").addObject().put("role", "user").put("content", "hi");
    String body = node.toString();
    try (LabFixture lab = new LabFixture();
        Raw r = new Raw(lab.emitter.port())) {
      String response =
          r.send(
                  "POST /v1/chat/completions HTTP/1.0\r\nContent-Length: "
                      + body.getBytes(StandardCharsets.UTF_8).length
                      + "\r\n\r\n"
                      + body)
              .readToClose();
      String stream = response.substring(response.indexOf("\r\n\r\n") + 4);
      List<String> events = new ArrayList<>();
      SseEventParser sse =
          new SseEventParser(
              (data, len) -> events.add(new String(data, 0, len, StandardCharsets.UTF_8)));
      byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
      sse.feed(bytes, 0, bytes.length);
      assertThat(events).hasSize(5); // 3 tokens, the finish chunk, [DONE]
      for (String e : events.subList(0, 4)) {
        JsonNode chunk = Json.MAPPER.readTree(e);
        assertThat(chunk.get("model").asText()).isEqualTo(model);
      }
      assertThat(events.get(4)).isEqualTo("[DONE]");
    }
  }

  @Test
  void anOverlongModelNameIsRefusedNamingTheField() throws Exception {
    String body =
        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"model\":\""
            + "x".repeat(1000)
            + "\"}";
    try (LabFixture lab = new LabFixture();
        Raw r = new Raw(lab.emitter.port())) {
      assertThat(
              r.send(
                      "POST /v1/chat/completions HTTP/1.0\r\nContent-Length: "
                          + body.length()
                          + "\r\n\r\n"
                          + body)
                  .readToClose())
          .startsWith("HTTP/1.1 400")
          .contains("'model'")
          .contains("at most 256 characters");
    }
  }

  /**
   * A client that resets its connection is ordinary (HAProxy drops upstream connections that way):
   * it must not print Vert.x's "Unhandled exception … Connection reset by peer" each time.
   */
  @Test
  void aClientResettingItsConnectionLogsNothing() throws Exception {
    List<LogRecord> severe = new ArrayList<>();
    Handler h =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
              synchronized (severe) {
                severe.add(r);
              }
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger root = Logger.getLogger("");
    root.addHandler(h);
    try (LabFixture lab = new LabFixture()) {
      for (int i = 0; i < 5; i++) {
        Raw r = new Raw(lab.emitter.port());
        r.send("GET /sse?frames=50&interval=10ms HTTP/1.1\r\nHost: x\r\n\r\n");
        r.socket.getInputStream().read(new byte[300]); // the stream has started
        r.socket.setSoLinger(true, 0); // close with RST
        r.close();
      }
      // a stream after the resets: the emitter is fine, and by now it has seen every reset
      BatchResult after = lab.measure(lab.sseUrl("frames=3&interval=1ms"));
      assertThat(after.errorCount()).isZero();
    } finally {
      root.removeHandler(h);
    }
    synchronized (severe) {
      assertThat(severe).extracting(LogRecord::getMessage).isEmpty();
    }
  }

  /**
   * Frames larger than one write buffer are written in pieces from a shared pattern: still exact
   * and checked.
   */
  @Test
  void framesLargerThanTheWriteBufferArriveWholeAndIntact() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      for (int size : new int[] {65536, 65537, 1_000_003, 3 << 20}) {
        BatchResult r = lab.measure(lab.sseUrl("frames=4&interval=0ms&size=" + size));
        assertThat(r.errorCount()).as("size %d", size).isZero();
        assertThat(r.frames()).isEqualTo(4);
        assertThat(r.corruptFrames() + r.lostFrames()).isZero();
        assertThat(r.bytes()).isGreaterThan(4L * size);
      }
      BatchResult chunkedOff =
          lab.measure(lab.sseUrl("frames=3&interval=0ms&transfer=close&size=" + (200 << 10)));
      assertThat(chunkedOff.frames()).isEqualTo(3);
      assertThat(chunkedOff.corruptFrames()).isZero();
    }
  }
}
