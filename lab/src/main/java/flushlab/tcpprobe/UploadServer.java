package flushlab.tcpprobe;

import flushlab.core.HostPort;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The emitter's upload endpoint, for the TCP-layer probes: answers {@code POST /upload} once it has
 * read the whole body, on keep-alive connections. Its listening socket gets {@code SO_RCVBUF}
 * before it listens (so accepted sockets inherit it, window scale included, as a server that fixes
 * the upload stall does); each connection may wait before its first read, as a busy server does;
 * TCP_NODELAY is settable; every response goes out in two writes (head, then body), as many servers
 * write them, so Nagle on the server side shows.
 *
 * <p>Blocking sockets on a thread per connection, at most {@link #MAX_CONNECTIONS} at once, each
 * read bounded by a 30 s timeout; bodies are read and dropped, never kept.
 */
public final class UploadServer implements AutoCloseable {
  public static final int MAX_CONNECTIONS = 16;
  public static final long MAX_BODY_BYTES = 1L << 30;
  private static final int MAX_HEAD_BYTES = 16 * 1024;
  private static final int READ_TIMEOUT_MILLIS = 30_000;

  /** What the server is asked to be. */
  public record Options(
      HostPort listen, int rcvbufBytes, long readDelayNanos, boolean tcpNoDelay) {}

  private final Options options;
  private final ServerSocket listener;
  private final int grantedRcvbuf;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;

  private UploadServer(Options options, ServerSocket listener) throws IOException {
    this.options = options;
    this.listener = listener;
    this.grantedRcvbuf = listener.getReceiveBufferSize();
    this.acceptor = new Thread(this::acceptLoop, "flushlab-upload-accept");
    this.acceptor.setDaemon(true);
  }

  /**
   * Listens (SO_RCVBUF set before bind and listen) and starts accepting; a port in use fails here.
   */
  public static UploadServer start(Options options) throws IOException {
    ServerSocket s = new ServerSocket();
    try {
      s.setReuseAddress(true);
      if (options.rcvbufBytes() > 0) s.setReceiveBufferSize(options.rcvbufBytes());
      s.bind(new InetSocketAddress(options.listen().host(), options.listen().port()), 64);
    } catch (IOException e) {
      s.close();
      throw e;
    }
    UploadServer server = new UploadServer(options, s);
    server.acceptor.start();
    return server;
  }

  public int port() {
    return listener.getLocalPort();
  }

  public HostPort address() {
    return new HostPort(options.listen().host(), port());
  }

  /**
   * SO_RCVBUF as the kernel granted it on the listener (Linux doubles a request, up to
   * net.core.rmem_max).
   */
  public int grantedRcvbuf() {
    return grantedRcvbuf;
  }

  public Options options() {
    return options;
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      Socket s;
      try {
        s = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (open.size() >= MAX_CONNECTIONS) {
        closeQuietly(s);
        continue;
      }
      open.add(s);
      Thread t = new Thread(() -> serve(s), "flushlab-upload-conn");
      t.setDaemon(true);
      t.start();
    }
  }

  private void serve(Socket s) {
    try (s) {
      s.setTcpNoDelay(options.tcpNoDelay());
      s.setSoTimeout(READ_TIMEOUT_MILLIS);
      if (options.readDelayNanos() > 0)
        TimeUnit.NANOSECONDS.sleep(options.readDelayNanos()); // a busy server, not reading yet
      InputStream in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
      OutputStream out = s.getOutputStream();
      byte[] buf = new byte[64 * 1024];
      int granted = s.getReceiveBufferSize();
      while (true) {
        Head head = readHead(in);
        if (head == null) return;
        String body;
        int status;
        if (head.contentLength < 0 || head.contentLength > MAX_BODY_BYTES) {
          status = 413;
          body = "{\"error\":\"Content-Length required, at most " + MAX_BODY_BYTES + " bytes\"}";
        } else {
          long left = head.contentLength;
          while (left > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) return;
            left -= n;
          }
          boolean known = head.path.equals("/upload");
          status = known ? 200 : 404;
          body =
              known
                  ? String.format(
                      Locale.ROOT, "{\"body_bytes\":%d,\"rcvbuf\":%d}", head.contentLength, granted)
                  : "{\"error\":\"no route "
                      + head.path.replace("\"", "")
                      + " (the upload listener answers /upload)\"}";
        }
        byte[] b = body.getBytes(StandardCharsets.US_ASCII);
        String h =
            "HTTP/1.1 "
                + status
                + (status == 200 ? " OK" : status == 404 ? " Not Found" : " Payload Too Large")
                + "\r\nContent-Type: application/json\r\nContent-Length: "
                + b.length
                + "\r\n"
                + (status == 413 ? "Connection: close\r\n" : "")
                + "\r\n";
        out.write(h.getBytes(StandardCharsets.US_ASCII)); // two writes on purpose: head, then body
        out.write(b);
        out.flush();
        if (status == 413) return;
      }
    } catch (SocketTimeoutException | SocketException e) {
      // the client went away or stalled past the timeout
    } catch (IOException e) {
      // same
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      open.remove(s);
    }
  }

  private record Head(String path, long contentLength) {}

  /**
   * Reads one request head byte by byte (heads are small); null at a clean end of the connection.
   */
  private static Head readHead(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder(256);
    int state = 0;
    while (state < 4) {
      int c = in.read();
      if (c < 0) {
        if (sb.length() == 0) return null;
        throw new SocketException("connection closed inside a request head");
      }
      if (sb.length() >= MAX_HEAD_BYTES)
        throw new SocketException("request head over " + MAX_HEAD_BYTES + " bytes");
      sb.append((char) c);
      state =
          (c == '\r' && (state == 0 || state == 2))
              ? state + 1
              : (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
    }
    String[] lines = sb.toString().split("\r\n");
    String[] first = lines[0].split(" ");
    String path = first.length > 1 ? first[1] : "/";
    int q = path.indexOf('?');
    if (q >= 0) path = path.substring(0, q);
    long length = 0;
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0 && lines[i].substring(0, colon).trim().equalsIgnoreCase("content-length")) {
        try {
          length = Long.parseLong(lines[i].substring(colon + 1).trim());
        } catch (NumberFormatException e) {
          length = -1;
        }
      }
    }
    return new Head(path, length);
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // nothing to do
    }
  }

  @Override
  public void close() {
    try {
      listener.close();
    } catch (IOException e) {
      // already closed
    }
    for (Socket s : open) closeQuietly(s);
  }
}
