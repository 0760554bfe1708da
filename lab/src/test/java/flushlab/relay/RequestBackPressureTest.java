package flushlab.relay;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ScriptedServer;
import flushlab.core.LabVertx;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetSocket;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The request direction has back-pressure as the response direction has: while upstream does not
 * read, the relay stops reading the client (whatever else holds the request: its delay queue, the
 * connection to upstream), so what a client can push is bounded by the sockets' buffers, not by the
 * relay's memory; and every byte still arrives, in order, once upstream reads again.
 */
class RequestBackPressureTest {
  private static final int BODY_BYTES = 96 << 20;

  @Test
  void aClientCannotPushMoreThanTheSocketsHoldWhileUpstreamDoesNotRead() throws Exception {
    Vertx vertx = LabVertx.create(2);
    CountDownLatch upstreamGotAll = new CountDownLatch(1);
    AtomicLong upstreamBytes = new AtomicLong();
    CRC32C upstreamCrc = new CRC32C();
    NetSocket[] upstreamSocket = new NetSocket[1];
    try (ScriptedServer upstream =
        new ScriptedServer(
            vertx,
            (so, self) -> {
              upstreamSocket[0] = so;
              so.pause(); // upstream reads nothing until the test says so
              so.handler(
                  b -> {
                    byte[] bytes = b.getBytes();
                    synchronized (upstreamCrc) {
                      upstreamCrc.update(bytes);
                    }
                    if (upstreamBytes.addAndGet(bytes.length) >= BODY_BYTES)
                      upstreamGotAll.countDown();
                  });
            })) {
      Relay relay =
          new Relay(
              new RelayOptions("127.0.0.1", 0, "127.0.0.1", upstream.port(), List.of(), false),
              RelayLog.SILENT);
      // each piece of the request waits 5 ms, as behind a latency toxic on stream upstream
      relay.chain(() -> new ConnectionPlan(List.of(), 5_000_000L));
      vertx.deployVerticle(relay).await(10, TimeUnit.SECONDS);
      AtomicLong written = new AtomicLong();
      CRC32C sentCrc = new CRC32C();
      try (Socket client = new Socket()) {
        client.connect(new InetSocketAddress("127.0.0.1", relay.port()), 5000);
        Thread writer =
            new Thread(
                () -> {
                  try {
                    OutputStream out = client.getOutputStream();
                    byte[] chunk = new byte[64 * 1024];
                    for (int i = 0; i < BODY_BYTES / chunk.length; i++) {
                      for (int j = 0; j < chunk.length; j += 8)
                        chunk[j] = (byte) (i + j); // not all zeros: the CRC sees the order
                      sentCrc.update(chunk);
                      out.write(chunk);
                      written.addAndGet(chunk.length);
                    }
                  } catch (Exception e) {
                    // the socket was closed at the end of the test
                  }
                },
                "request-writer");
        writer.setDaemon(true);
        writer.start();
        // wait until the client's writes stop advancing: every buffer between it and upstream is
        // full
        long last = -1;
        while (written.get() != last) {
          last = written.get();
          writer.join(500);
        }
        long pushed = written.get();
        System.out.printf(
            "RequestBackPressureTest: %.1f MiB written by the client while upstream read nothing%n",
            pushed / 1048576.0);
        assertThat(pushed)
            .as("bytes the client pushed while upstream read nothing")
            .isLessThan(BODY_BYTES / 2);
        upstreamSocket[0].resume();
        assertThat(upstreamGotAll.await(60, TimeUnit.SECONDS))
            .as("every request byte reached upstream")
            .isTrue();
        writer.join(10_000);
        assertThat(upstreamBytes.get()).isEqualTo(BODY_BYTES);
        synchronized (upstreamCrc) {
          assertThat(upstreamCrc.getValue())
              .as("the request's bytes, in order")
              .isEqualTo(sentCrc.getValue());
        }
      }
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
