package flushlab.emitter;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ForkedLab;
import flushlab.FreePort;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.LabVertx;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emitter's memory does not grow with what clients ask for: an emitter in its own JVM with a 96
 * MiB heap serves, one after another, what used to run it out of memory, then a normal stream.
 */
class EmitterMemoryTest {
  static final int HEAP_MIB = 96;

  @Test
  void longStreamsCutShortAndHugeFramesNobodyReadsDoNotExhaustASmallHeap(@TempDir Path dir)
      throws Exception {
    int port;
    port = FreePort.forALaterServer();
    List<Socket> idle = new ArrayList<>();
    try (ForkedLab emitter =
        ForkedLab.start(
            dir, List.of("-Xmx" + HEAP_MIB + "m"), "emitter", "--listen", "127.0.0.1:" + port)) {
      emitter.awaitLine("flushlab emitter listening on", 60_000);
      // 1. 45 streams of a million 1 ms frames, each reset by its client once the head arrived
      //    (each used to keep 16 MB of per-frame audit arrays, after the client left too)
      for (int i = 0; i < 45; i++) {
        try (Socket s = connect(port)) {
          request(s, "/sse?frames=1000000&interval=1ms");
          s.getInputStream().read(new byte[512]);
          s.setSoLinger(true, 0);
        }
      }
      // 2. 20 clients asking for 16 MiB frames as fast as possible and never reading
      //    (each used to hold a 16 MiB scratch array and a 16 MiB buffer)
      for (int i = 0; i < 20; i++) {
        Socket s = connect(port);
        idle.add(s);
        request(s, "/sse?frames=50&size=16MiB&interval=0ms");
      }
      // 3. a chat stream with the longest model name allowed and many tokens starts and is cut
      try (Socket s = connect(port)) {
        String body =
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"pi_tokens\":1000000,\"pi_delay_ms\":0,\"model\":\""
                + "m".repeat(256)
                + "\"}";
        s.getOutputStream()
            .write(
                ("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                        + body.length()
                        + "\r\n\r\n"
                        + body)
                    .getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(s.getInputStream().readNBytes(15), StandardCharsets.US_ASCII))
            .isEqualTo("HTTP/1.1 200 OK");
        s.setSoLinger(true, 0);
      }
      // With all that still going on, an ordinary stream is served in full.
      Vertx vertx = LabVertx.create(1);
      try {
        MeteredClient client = new MeteredClient(vertx, ClientOptions.single());
        BatchResult r =
            client
                .run(RequestPlan.get("http://127.0.0.1:" + port + "/sse?frames=41&interval=5ms"))
                .await(60, TimeUnit.SECONDS);
        client.close();
        assertThat(r.errorCount()).as(r.oneLine() + "\n" + emitter.output()).isZero();
        assertThat(r.frames()).isEqualTo(41);
      } finally {
        vertx.close().await(10, TimeUnit.SECONDS);
      }
      assertThat(emitter.process().isAlive()).isTrue();
      assertThat(emitter.output()).doesNotContain("OutOfMemoryError");
    } finally {
      for (Socket s : idle) s.close();
    }
  }

  private static Socket connect(int port) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    s.setSoTimeout(30_000);
    return s;
  }

  private static void request(Socket s, String target) throws IOException {
    s.getOutputStream()
        .write(
            ("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
  }
}
