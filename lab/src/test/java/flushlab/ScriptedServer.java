package flushlab;

import flushlab.core.FrameCodec;
import flushlab.core.LabClock;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.zip.CRC32C;

/** A loopback test server that answers every connection with a script of timed raw writes. */
public final class ScriptedServer implements AutoCloseable {
  private final NetServer server;

  /** One write of the script: bytes produced at write time, sent delayMs after the previous one. */
  public record Step(long delayMs, Supplier<byte[]> bytes) {}

  public ScriptedServer(Vertx vertx, BiConsumer<NetSocket, ScriptedServer> onConnect)
      throws Exception {
    server =
        vertx.createNetServer(
            new NetServerOptions().setHost("127.0.0.1").setPort(0).setTcpNoDelay(true));
    server.connectHandler(so -> onConnect.accept(so, this));
    server.listen().await(5, TimeUnit.SECONDS);
  }

  /** A server that waits for the request head, then plays the steps and closes. */
  public static ScriptedServer playing(Vertx vertx, List<Step> steps) throws Exception {
    return new ScriptedServer(
        vertx,
        (so, self) -> {
          StringBuilder head = new StringBuilder();
          boolean[] started = {false};
          so.handler(
              b -> {
                head.append(b.toString(StandardCharsets.ISO_8859_1));
                if (!started[0] && head.indexOf("\r\n\r\n") >= 0) {
                  started[0] = true;
                  play(vertx, so, steps, 0);
                }
              });
        });
  }

  private static void play(Vertx vertx, NetSocket so, List<Step> steps, int i) {
    if (i == steps.size()) {
      so.close();
      return;
    }
    Step s = steps.get(i);
    Runnable write =
        () -> {
          so.write(Buffer.buffer(s.bytes().get()));
          play(vertx, so, steps, i + 1);
        };
    if (s.delayMs() <= 0) {
      write.run();
    } else {
      vertx.setTimer(s.delayMs(), id -> write.run());
    }
  }

  public int port() {
    return server.actualPort();
  }

  public static byte[] sseHead() {
    return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** Plain flushlab frames with the given sequence numbers, concatenated, stamped now. */
  public static byte[] frames(int size, long... seqs) {
    byte[] out = new byte[size * seqs.length];
    CRC32C crc = new CRC32C();
    for (int i = 0; i < seqs.length; i++) {
      FrameCodec.encode(seqs[i], LabClock.epochNanos(), size, out, i * size, crc);
    }
    return out;
  }

  @Override
  public void close() throws Exception {
    server.close().await(5, TimeUnit.SECONDS);
  }
}
