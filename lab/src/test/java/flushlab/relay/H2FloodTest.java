package flushlab.relay;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Await;
import flushlab.LabFixture;
import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.HttpVersion;
import flushlab.client.RequestPlan;
import flushlab.emitter.EmitterOptions;
import flushlab.http.H2;
import flushlab.http.H2Guard;
import flushlab.http.Hpack;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The HTTP/2 floods, each from an attack client written here (raw frames on a socket, loopback),
 * against the emitter's h2c listener and the relay's h2c edge: a connection that floods is closed
 * (with GOAWAY ENHANCE_YOUR_CALM when the client reads), the heap after GC stays within 64 MiB of
 * where it was, and the server still serves a stream to another client afterwards.
 */
class H2FloodTest {
  private static final long HEAP_GROWTH_CAP = 64L << 20;
  private static LabFixture lab;
  private static Relay relay;
  private static final long RELAY_REQUEST_TIMEOUT_S = 1;

  @BeforeAll
  static void start() throws Exception {
    lab =
        new LabFixture(
            EmitterOptions.loopback(0).withLimits(1024, 1_000_000_000L),
            2); // a 1 s request timeout
    // the relay's edge, like the emitter, gives a request 1 s to be complete (the default, 10 s, is
    // a test's wait for nothing)
    relay =
        RelayFixture.start(
            lab,
            RelayOptions.loopback(lab.emitter.port(), List.of("passthrough"))
                .withRequestTimeout(RELAY_REQUEST_TIMEOUT_S * 1_000_000_000L));
  }

  @AfterAll
  static void stop() throws Exception {

    lab.close();
  }

  private static int[] targets() {
    return new int[] {lab.emitter.port(), relay.port()};
  }

  private static String name(int port) {
    return port == relay.port() ? "relay" : "emitter";
  }

  @Test
  void pingAndSettingsFloodsFromAClientThatNeverReadsAreCutOff() throws Exception {
    for (int port : targets()) {
      for (byte[] frame : List.of(H2.frame(H2.PING, 0, 0, new byte[8]), H2.settings())) {
        long before = heapAfterGc();
        long sent = 0;
        boolean cut = false;
        long deadline = System.nanoTime() + 60_000_000_000L;
        try (Raw c = new Raw(port)) {
          byte[] batch = new byte[frame.length * 1000];
          for (int i = 0; i < 1000; i++)
            System.arraycopy(frame, 0, batch, i * frame.length, frame.length);
          try {
            while (sent < 4_000_000
                && System.nanoTime() < deadline) { // 4 million frames at the most, never reading
              c.out.write(batch);
              sent += 1000;
            }
          } catch (IOException e) {
            cut = true; // the server closed the connection while the flood still came
          }
        }
        long after = heapAfterGc();
        System.out.printf(
            "H2FloodTest: %s, %s flood: cut after %d frames; heap after GC %d -> %d MiB%n",
            name(port), frame[3] == H2.PING ? "PING" : "SETTINGS", sent, before >> 20, after >> 20);
        assertThat(cut).as(name(port) + " closed the flooding connection").isTrue();
        assertThat(after - before).as("heap growth").isLessThan(HEAP_GROWTH_CAP);
        stillServes(port);
      }
    }
  }

  @Test
  void rapidResetIsCutOffAndTheRelaysInnerConnectionsGoWithIt() throws Exception {
    for (int port : targets()) {
      long fdsBefore = openFiles();
      int streams = 0;
      long code;
      try (Raw c = new Raw(port)) {
        try {
          for (int id = 1; streams < 2_000; id += 2, streams++) {
            c.out.write(c.headers(id, "GET", "/sse?frames=100&interval=10ms", true));
            c.out.write(H2.rstStream(id, H2.CANCEL));
          }
        } catch (IOException e) {
          // closed mid-flood
        }
        code = c.awaitGoAway();
      }
      System.out.printf(
          "H2FloodTest: %s, rapid reset: GOAWAY %s after %d streams opened and reset%n",
          name(port), H2.errorName(code), streams);
      assertThat(code).as(name(port)).isEqualTo(H2.ENHANCE_YOUR_CALM);
      // every inner connection (the relay's one per stream) and upstream connection closes with it
      Await.until(
          name(port) + "'s open files back within 40 of " + fdsBefore,
          10_000,
          () -> openFiles() <= fdsBefore + 40);
      stillServes(port);
    }
  }

  /**
   * Streams whose window the client never opens, on two connections of 128 streams each, each
   * asking for 16 MiB as fast as it comes: the relay holds what it is sent up to its per-stream and
   * per-connection caps and stops reading the rest (it used to hold 5.4 MB a stream, 1.4 GB in
   * all).
   */
  @Test
  void streamsWhoseWindowNeverOpensHoldNoMoreThanTheCaps() throws Exception {
    long before = heapAfterGc();
    long worst = 0;
    try (Raw a = new Raw(relay.port(), 0);
        Raw b = new Raw(relay.port(), 0)) {
      for (Raw c : List.of(a, b)) {
        for (int i = 0, id = 1; i < 128; i++, id += 2)
          c.out.write(c.headers(id, "GET", "/sse?total=16MiB&size=16KiB&interval=0ms", true));
      }
      for (Raw c : List.of(a, b)) {
        for (int i = 0; i < 128; i++)
          assertThat(c.await(H2.HEADERS, -1)).as("response %d's head", i).isNotEqualTo(-1);
      }
      long end =
          System.nanoTime()
              + 3_000_000_000L; // watched for 3 s with the streams open: the holds fill in well
      // under that
      while (System.nanoTime() < end) worst = Math.max(worst, heapAfterGc() - before);
    }
    System.out.printf(
        "H2FloodTest: relay, 256 streams with closed windows: heap after GC at most %+d MiB over 3 s%n",
        worst >> 20);
    assertThat(worst).isLessThan(HEAP_GROWTH_CAP);
    stillServes(relay.port());
  }

  @Test
  void emptyDataAndEmptyContinuationFloodsAreCutOff() throws Exception {
    for (int port : targets()) {
      try (Raw c = new Raw(port)) {
        c.out.write(c.headers(1, "POST", "/v1/chat/completions", false));
        for (int i = 0; i <= H2Guard.MAX_EMPTY_FRAMES + 5; i++)
          c.out.write(H2.frame(H2.DATA, 0, 1, new byte[0]));
        assertThat(c.awaitGoAway()).as(name(port) + ", empty DATA").isEqualTo(H2.ENHANCE_YOUR_CALM);
      }
      try (Raw c = new Raw(port)) {
        byte[] block = c.block(1, "GET", "/sse?frames=2");
        c.out.write(
            H2.frame(
                H2.HEADERS,
                H2.FLAG_END_STREAM,
                1,
                Arrays.copyOf(block, 1))); // END_HEADERS still to come
        for (int i = 0; i <= H2Guard.MAX_EMPTY_FRAMES + 5; i++)
          c.out.write(H2.frame(H2.CONTINUATION, 0, 1, new byte[0]));
        assertThat(c.awaitGoAway())
            .as(name(port) + ", empty CONTINUATION")
            .isEqualTo(H2.ENHANCE_YOUR_CALM);
      }
      stillServes(port);
    }
  }

  @Test
  void aTrickledHeaderBlockOrBodyEndsAtTheRequestTimeout() throws Exception {
    int port = lab.emitter.port(); // its request timeout is 1 s here; the relay's edge has 10 s
    try (Raw c = new Raw(port)) {
      byte[] block = c.block(1, "GET", "/sse?frames=2");
      long t0 = System.nanoTime();
      c.out.write(H2.frame(H2.HEADERS, H2.FLAG_END_STREAM, 1, Arrays.copyOf(block, 1)));
      long code = c.awaitGoAway();
      double s = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          "H2FloodTest: an unfinished header block: GOAWAY %s after %.1f s (request timeout 1 s)%n",
          H2.errorName(code), s);
      assertThat(code).isEqualTo(H2.PROTOCOL_ERROR);
    }
    try (Raw c = new Raw(port)) {
      c.out.write(c.headers(1, "POST", "/v1/chat/completions", false));
      c.out.write(
          H2.frame(
              H2.DATA, 0, 1, "{".getBytes(StandardCharsets.US_ASCII))); // and the rest never comes
      assertThat(c.awaitReset(1))
          .as("the stream whose body never ended is reset")
          .isEqualTo(H2.CANCEL);
    }
  }

  /**
   * The relay's edge holds requests to its own 10 s: a body that never ends is reset, a header
   * block never finished ends the connection.
   */
  @Test
  void theRelaysEdgeEndsTrickledRequestsAtItsRequestTimeout() throws Exception {
    try (Raw body = new Raw(relay.port());
        Raw block = new Raw(relay.port())) {
      long t0 = System.nanoTime();
      body.out.write(body.headers(1, "POST", "/v1/chat/completions", false));
      body.out.write(
          H2.frame(
              H2.DATA, 0, 1, "{".getBytes(StandardCharsets.US_ASCII))); // and the rest never comes
      block.out.write(
          H2.frame(
              H2.HEADERS,
              H2.FLAG_END_STREAM,
              1,
              Arrays.copyOf(block.block(1, "GET", "/sse?frames=2"), 1)));
      assertThat(body.awaitReset(1))
          .as("the stream whose body never ended is reset")
          .isEqualTo(H2.CANCEL);
      assertThat(block.awaitGoAway())
          .as("an unfinished header block ends the connection")
          .isEqualTo(H2.PROTOCOL_ERROR);
      double s = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          "H2FloodTest: relay, a trickled body reset and an unfinished header block closed after %.1f s (request timeout %d s)%n",
          s, RELAY_REQUEST_TIMEOUT_S);
      assertThat(s).isGreaterThanOrEqualTo(RELAY_REQUEST_TIMEOUT_S * 0.9);
    }
  }

  @Test
  void abandonedNonStreamedCompletionsFreeTheirRequestsWhenTheirClientsGo() throws Exception {
    long before = heapAfterGc();
    String content = "x".repeat(900_000);
    byte[] body =
        ("{\"model\":\"m\",\"stream\":false,\"pi_tokens\":10,\"pi_delay_ms\":300000,\"messages\":[{\"role\":\"user\",\"content\":\""
                + content
                + "\"}]}")
            .getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < 60; i++) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", lab.emitter.port()), 5_000);
        s.getOutputStream()
            .write(
                ("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.length
                        + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().write(body);
      } // gone before the answer, due in 45 minutes
    }
    long t0 = System.nanoTime();
    Await.until(
        "the abandoned completions' 54 MB freed",
        10_000,
        () -> heapAfterGc() - before < (16L << 20));
    System.out.printf(
        "H2FloodTest: 60 abandoned completions of 0.9 MB each freed %.2f s after their clients left%n",
        (System.nanoTime() - t0) / 1e9);
  }

  /**
   * The other way round: a server that floods the metered client with PINGs and reads none of the
   * answers fails the client's stream with that reason, well before the stream's own timeout (the
   * map's requests are bounded by its budget through that timeout).
   */
  @Test
  void aServerFloodingPingsFailsTheClientsStreamWithTheReason() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread flood =
          new Thread(
              () -> {
                try (Socket s = server.accept()) {
                  OutputStream out = s.getOutputStream();
                  out.write(H2.settings());
                  byte[] ping = H2.frame(H2.PING, 0, 0, new byte[8]);
                  byte[] batch = new byte[ping.length * 1000];
                  for (int i = 0; i < 1000; i++)
                    System.arraycopy(ping, 0, batch, i * ping.length, ping.length);
                  for (int i = 0; i < 4000; i++)
                    out.write(batch); // 4 million PINGs at the most, never reading
                } catch (IOException e) {
                  // the client gave up on the connection
                }
              });
      flood.start();
      long t0 = System.nanoTime();
      BatchResult r =
          lab.measure(
              RequestPlan.get("http://127.0.0.1:" + server.getLocalPort() + "/sse?frames=5"),
              ClientOptions.single().withHttp(HttpVersion.H2C).withTimeoutNanos(60_000_000_000L));
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          "H2FloodTest: a server flooding PINGs: the client's stream failed after %.1f s (its timeout 60 s): %s%n",
          seconds, r.errors());
      assertThat(r.errorCount()).isEqualTo(1);
      assertThat(r.errors().toString())
          .contains("the server sent PINGs or SETTINGS faster than it read the answers");
      assertThat(seconds).isLessThan(30);
      flood.join(30_000);
    }
  }

  /** A stream through the target after the attack: served whole. */
  private static void stillServes(int port) throws Exception {
    BatchResult r = lab.measure("http://127.0.0.1:" + port + "/sse?frames=5&interval=5ms");
    assertThat(r.errorCount()).as(name(port) + " still serves: " + r.oneLine()).isZero();
    assertThat(r.frames()).isEqualTo(5);
  }

  private static long heapAfterGc() {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    System.gc();
    return rt.totalMemory() - rt.freeMemory();
  }

  private static long openFiles() {
    try (var s = Files.list(Path.of("/proc/self/fd"))) {
      return s.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An HTTP/2 client that writes what it likes: h2c by prior knowledge, frames by hand. */
  private static final class Raw implements AutoCloseable {
    final Socket socket = new Socket();
    final OutputStream out;
    final DataInputStream in;
    final Hpack hpack = new Hpack();

    Raw(int port) throws IOException {
      this(port, -1);
    }

    /**
     * @param initialWindow the streams' window the client announces (-1: HTTP/2's default)
     */
    Raw(int port, int initialWindow) throws IOException {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(20_000);
      out = socket.getOutputStream();
      in = new DataInputStream(socket.getInputStream());
      out.write(H2.PREFACE);
      out.write(
          initialWindow < 0
              ? H2.settings()
              : H2.settings(H2.SETTINGS_INITIAL_WINDOW_SIZE, initialWindow));
    }

    byte[] block(int id, String method, String path) throws Exception {
      return hpack.encode(
          id, new DefaultHttp2Headers().method(method).path(path).scheme("http").authority("x"));
    }

    byte[] headers(int id, String method, String path, boolean end) throws IOException {
      try {
        return H2.frame(
            H2.HEADERS,
            H2.FLAG_END_HEADERS | (end ? H2.FLAG_END_STREAM : 0),
            id,
            block(id, method, path));
      } catch (Exception e) {
        throw new IOException(e);
      }
    }

    /** Reads frames until a GOAWAY: its error code; -1 when the connection ended without one. */
    long awaitGoAway() throws IOException {
      return await(H2.GOAWAY, 0);
    }

    /**
     * Reads frames until a RST_STREAM of {@code id}: its error code; -1 when the connection ended
     * first.
     */
    long awaitReset(int id) throws IOException {
      return await(H2.RST_STREAM, id);
    }

    /**
     * Reads frames until one of {@code type} (on stream {@code id}, or any with -1): its error
     * code, or its stream for HEADERS; -1 at the end.
     */
    long await(int type, int id) throws IOException {
      byte[] head = new byte[9];
      try {
        while (true) {
          in.readFully(head);
          int length = ((head[0] & 0xff) << 16) | ((head[1] & 0xff) << 8) | (head[2] & 0xff);
          int stream =
              ((head[5] & 0x7f) << 24)
                  | ((head[6] & 0xff) << 16)
                  | ((head[7] & 0xff) << 8)
                  | (head[8] & 0xff);
          byte[] payload = new byte[length];
          in.readFully(payload);
          if ((head[3] & 0xff) == type && (type == H2.GOAWAY || id < 0 || stream == id)) {
            if (type == H2.HEADERS) return stream;
            int at = type == H2.GOAWAY ? 4 : 0;
            return ((payload[at] & 0xffL) << 24)
                | ((payload[at + 1] & 0xffL) << 16)
                | ((payload[at + 2] & 0xffL) << 8)
                | (payload[at + 3] & 0xffL);
          }
        }
      } catch (EOFException | SocketTimeoutException e) {
        return -1;
      } catch (IOException e) {
        if (String.valueOf(e.getMessage()).contains("reset")) return -1;
        throw e;
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
