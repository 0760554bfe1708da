package flushlab.tcpprobe;

import flushlab.core.HostPort;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Seed 003's second stall: Nagle's algorithm meeting delayed ACKs on a keep-alive connection. N
 * small request/response pairs on one connection; each request goes out in two writes (head, then a
 * small body), as many HTTP clients send a POST, so with Nagle on the body waits for the head's
 * ACK, which the server delays while it waits for the body. The server side does the same with its
 * response (the lab's upload server writes head and body apart). A request slower than the fastest
 * of the whole probe (every setting measured against the same server) by more than a margin counts
 * as a stall: a delayed ACK costs 40 ms or more on Linux.
 */
public final class KeepAliveProbe {
  private KeepAliveProbe() {}

  /** One connection's requests, each one's time from its first write to the end of its response. */
  public record Result(
      boolean clientNoDelay,
      int requests,
      double meanMs,
      double p50Ms,
      double p99Ms,
      double maxMs,
      double minMs,
      double totalMs,
      long[] nanos) {
    /** Requests slower than {@code fastestMs} by more than {@code overMs}. */
    public int stalls(double fastestMs, double overMs) {
      int n = 0;
      for (long v : nanos) if (v / 1e6 > fastestMs + overMs) n++;
      return n;
    }
  }

  /**
   * Requests on a connection of its own before measuring, so the JIT and the server's thread are
   * warm; not reported.
   */
  public static final int WARMUP_REQUESTS = 16;

  /**
   * Warms up on a connection of its own (Nagle's state and quick-ACK mode start fresh on the
   * measured one).
   */
  public static void warmUp(HostPort at, int bodyBytes) throws IOException {
    run(at, WARMUP_REQUESTS, bodyBytes, true);
  }

  public static Result run(HostPort at, int requests, int bodyBytes, boolean clientNoDelay)
      throws IOException {
    long[] nanos = new long[requests];
    byte[] head =
        ("POST /upload HTTP/1.1\r\nHost: "
                + at
                + "\r\nContent-Type: application/octet-stream\r\nContent-Length: "
                + bodyBytes
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] body = new byte[bodyBytes];
    Arrays.fill(body, (byte) 'x');
    try (Socket s = new Socket()) {
      s.setTcpNoDelay(clientNoDelay);
      s.setSoTimeout(30_000);
      s.connect(new InetSocketAddress(at.host(), at.port()), 5_000);
      InputStream in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
      OutputStream out = s.getOutputStream();
      long total = System.nanoTime();
      for (int i = 0; i < requests; i++) {
        long t0 = System.nanoTime();
        out.write(head); // two writes on purpose: a head, then a small body
        out.write(body);
        readResponse(in);
        nanos[i] = System.nanoTime() - t0;
      }
      total = System.nanoTime() - total;
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      double sum = 0;
      for (long n : nanos) sum += n;
      return new Result(
          clientNoDelay,
          requests,
          sum / requests / 1e6,
          sorted[(requests - 1) / 2] / 1e6,
          sorted[(int) Math.ceil(0.99 * requests) - 1] / 1e6,
          sorted[requests - 1] / 1e6,
          sorted[0] / 1e6,
          total / 1e6,
          nanos);
    }
  }

  /** Reads one response: its head, then Content-Length bytes of body. */
  private static void readResponse(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder(128);
    int state = 0;
    while (state < 4) {
      int c = in.read();
      if (c < 0) throw new IOException("the server closed the connection mid-response");
      if (sb.length() > 16 * 1024) throw new IOException("response head over 16 KiB");
      sb.append((char) c);
      state =
          (c == '\r' && (state == 0 || state == 2))
              ? state + 1
              : (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
    }
    String h = sb.toString();
    if (!h.startsWith("HTTP/1.1 200") && !h.startsWith("HTTP/1.0 200")) {
      throw new IOException(
          "the server answered "
              + h.split("\r\n", 2)[0]
              + " (it must answer POST /upload with 200)");
    }
    long length = -1;
    for (String line : h.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
        length = Long.parseLong(line.substring(colon + 1).trim());
      }
    }
    if (length < 0)
      throw new IOException("the response has no Content-Length; the keep-alive probe needs one");
    for (long left = length; left > 0; left--) {
      if (in.read() < 0) throw new IOException("the server closed the connection mid-body");
    }
  }

  public static final String HEADER =
      "| client TCP_NODELAY | server TCP_NODELAY | requests | mean ms | p50 ms | p99 ms | max ms | "
          + "stalls | total ms |\n|---|---|---:|---:|---:|---:|---:|---:|---:|";

  public static String row(Result r, String server, int stalls) {
    return String.format(
        Locale.ROOT,
        "| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %d | %.1f |",
        r.clientNoDelay() ? "on" : "off",
        server,
        r.requests(),
        r.meanMs(),
        r.p50Ms(),
        r.p99Ms(),
        r.maxMs(),
        stalls,
        r.totalMs());
  }
}
