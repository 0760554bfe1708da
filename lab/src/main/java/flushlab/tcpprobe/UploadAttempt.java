package flushlab.tcpprobe;

import flushlab.core.HostPort;
import flushlab.core.LabVertx;
import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.epoll.EpollTcpInfo;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One upload attempt, as seed 003's raw-socket probe makes it: on a fresh connection, the request
 * line, headers and a body of B bytes handed to the kernel in one write; the time from that write
 * to the last byte of the response head; then the client socket's TCP_INFO (retransmits, RTT),
 * which says whether a stall was the network's (a retransmit timeout) or the server's.
 */
public final class UploadAttempt {
  private UploadAttempt() {}

  /**
   * What one attempt saw; {@code error} is null when a response head arrived. TCP_INFO fields are
   * -1 without epoll.
   */
  public record Result(
      int bodyBytes,
      long nanosToHead,
      int status,
      long totalRetrans,
      long rttMicros,
      long sndMss,
      String error) {
    public double millis() {
      return nanosToHead / 1e6;
    }

    public boolean ok() {
      return error == null;
    }
  }

  /** The request bytes: head and body in one buffer, so one write hands the kernel all of it. */
  static Buffer request(HostPort at, int bodyBytes) {
    byte[] head =
        ("POST /upload HTTP/1.1\r\nHost: "
                + at
                + "\r\nContent-Type: application/octet-stream\r\nContent-Length: "
                + bodyBytes
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] all = Arrays.copyOf(head, head.length + bodyBytes);
    Arrays.fill(all, head.length, all.length, (byte) 'x');
    return Buffer.buffer(all);
  }

  public static Future<Result> run(
      Vertx vertx, NetClient client, HostPort at, int bodyBytes, long timeoutNanos) {
    Promise<Result> done = Promise.promise();
    Buffer request = request(at, bodyBytes);
    client
        .connect(at.port(), at.host())
        .onComplete(
            ar -> {
              if (ar.failed()) {
                done.tryComplete(
                    new Result(
                        bodyBytes,
                        -1,
                        0,
                        -1,
                        -1,
                        -1,
                        "cannot connect to " + at + ": " + ar.cause().getMessage()));
                return;
              }
              NetSocket socket = ar.result();
              Channel channel = LabVertx.channel(socket);
              StringBuilder head = new StringBuilder();
              long timer =
                  vertx.setTimer(
                      Math.max(1, timeoutNanos / 1_000_000),
                      id -> {
                        done.tryComplete(
                            new Result(
                                bodyBytes,
                                -1,
                                0,
                                -1,
                                -1,
                                -1,
                                "no response head within " + timeoutNanos / 1_000_000 + " ms"));
                        socket.close();
                      });
              long[] t0 = new long[1];
              socket.handler(
                  b -> {
                    if (done.future().isComplete()) return;
                    head.append(b.toString(StandardCharsets.ISO_8859_1));
                    if (head.indexOf("\r\n\r\n") < 0) {
                      if (head.length() > 64 * 1024) {
                        vertx.cancelTimer(timer);
                        done.tryComplete(
                            new Result(bodyBytes, -1, 0, -1, -1, -1, "response head over 64 KiB"));
                        socket.close();
                      }
                      return;
                    }
                    long t1 = System.nanoTime(); // the read that completed the head
                    vertx.cancelTimer(timer);
                    int status = status(head);
                    long retrans = -1;
                    long rtt = -1;
                    long mss = -1;
                    if (channel instanceof EpollSocketChannel epoll) {
                      EpollTcpInfo info = epoll.tcpInfo(new EpollTcpInfo());
                      retrans = info.totalRetrans();
                      rtt = info.rtt();
                      mss = info.sndMss();
                    }
                    done.tryComplete(
                        new Result(bodyBytes, t1 - t0[0], status, retrans, rtt, mss, null));
                    socket.close();
                  });
              socket.closeHandler(
                  v -> {
                    vertx.cancelTimer(timer);
                    done.tryComplete(
                        new Result(
                            bodyBytes,
                            -1,
                            0,
                            -1,
                            -1,
                            -1,
                            "the server closed the connection before a response head"));
                  });
              socket.exceptionHandler(t -> {});
              t0[0] = System.nanoTime(); // just before the one write
              socket.write(request);
            });
    return done.future();
  }

  private static int status(CharSequence head) {
    String first = head.toString().split("\r\n", 2)[0];
    String[] f = first.split(" ");
    try {
      return f.length > 1 ? Integer.parseInt(f[1]) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
