package flushlab.client;

import flushlab.core.LabVertx;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.ConnectOptions;
import io.vertx.core.net.NetSocket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One connection of a batch: sends one request after another on it, reusing it when keep-alive
 * allows (HTTP/2: up to the streams per connection at once), and meters every read. Runs on the
 * client's event-loop context.
 */
final class ClientConnection {
  private final MeteredClient client;
  private final ClientOptions options;
  private final Vertx vertx;
  private final ClientBatch batch;
  private NetSocket socket;
  private Channel channel;
  private StreamMeter meter;
  private long timerId = -1;

  private byte[] scratch;
  private boolean reusable;

  /** TLS only: plaintext bytes of the socket read in progress, and when the first of them came. */
  private int plainPending;

  private long plainTime;

  /**
   * TLS only: the socket read in progress filled the receive buffer (more was waiting in the
   * kernel).
   */
  private boolean socketReadFull;

  /** HTTP/2 (h2 or h2c): the streams open on this connection and its session; null on HTTP/1.1. */
  private H2Streams h2;

  ClientConnection(MeteredClient client, ClientBatch batch) {
    this.client = client;
    this.options = client.options();
    this.vertx = client.vertx();
    this.batch = batch;
    this.scratch = new byte[options.recvBufferBytes()];
  }

  /** The connection's socket, or null once it closed (or was closed). */
  NetSocket socket() {
    return socket;
  }

  Channel channel() {
    return channel;
  }

  /** Lets go of the socket (it closed, or is about to be): the one it was, or null. */
  NetSocket dropSocket() {
    NetSocket s = socket;
    socket = null;
    return s;
  }

  /** Whether a next request may go on this connection, as HTTP/1.1's keep-alive allows. */
  boolean reusable() {
    return reusable;
  }

  void notReusable() {
    reusable = false;
  }

  void next() {
    if (!batch.takeRequest()) {
      if (socket != null) socket.close();
      batch.connectionDone();
      return;
    }
    if (socket != null && reusable) {
      send();
      return;
    }
    RequestPlan plan = batch.plan;
    String mismatch = httpMismatch(plan);
    if (mismatch != null) {
      batch.record(StreamResult.connectFailed(mismatch));
      next();
      return;
    }
    boolean h2Tls = options.http() == HttpVersion.H2;
    // a browser or curl left to itself offers h2 and http/1.1 and speaks what the server picks
    boolean offerBoth = options.http() == HttpVersion.AUTO && plan.profile().offersH2OverTls();
    Future<NetSocket> connecting =
        plan.tls() == null
            ? client.net().connect(plan.port(), plan.host())
            : client
                .net()
                .connect(
                    new ConnectOptions()
                        .setHost(plan.host())
                        .setPort(plan.port())
                        .setSsl(true)
                        .setSslOptions(
                            h2Tls
                                ? plan.tls()
                                    .sslOptions()
                                    .setUseAlpn(true)
                                    .setApplicationLayerProtocols(List.of("h2"))
                                : offerBoth
                                    ? plan.tls()
                                        .sslOptions()
                                        .setUseAlpn(true)
                                        .setApplicationLayerProtocols(List.of("h2", "http/1.1"))
                                    : plan.tls().sslOptions())
                        .setSniServerName(plan.tls().serverName(plan.host())));
    connecting.onComplete(
        ar -> {
          if (ar.failed()) {
            batch.record(
                StreamResult.connectFailed(
                    "cannot connect to "
                        + plan.host()
                        + ":"
                        + plan.port()
                        + (plan.tls() == null ? "" : " over TLS (" + plan.tls().describe() + ")")
                        + ": "
                        + ar.cause().getMessage()));
            socket = null;
            next();
            return;
          }
          NetSocket s = ar.result();
          if (h2Tls && !"h2".equals(s.applicationLayerProtocol())) {
            batch.record(
                StreamResult.connectFailed(
                    plan.host()
                        + ":"
                        + plan.port()
                        + " did not agree to h2 over TLS (ALPN chose "
                        + (s.applicationLayerProtocol() == null
                            ? "nothing"
                            : s.applicationLayerProtocol())
                        + "); try --http 1.1"));
            s.close();
            socket = null;
            next();
            return;
          }
          attach(s);
          if (h2 != null) {
            h2.openStreams();
          } else {
            send();
          }
        });
  }

  /**
   * h2 goes over TLS (an https target), h2c over plain TCP: the other pairings are refused before
   * connecting.
   */
  private String httpMismatch(RequestPlan plan) {
    if (options.http() == HttpVersion.H2 && plan.tls() == null) {
      return "--http h2 needs an https target (ALPN over TLS); for plain http use --http h2c";
    }
    if ((options.http() == HttpVersion.H2C || options.http() == HttpVersion.H2C_UPGRADE)
        && plan.tls() != null) {
      return "--http "
          + options.http().text()
          + " is HTTP/2 over plain TCP; for an https target use --http h2";
    }
    return null;
  }

  private void attach(NetSocket s) {
    socket = s;
    channel = LabVertx.channel(s);
    reusable = options.keepAlive();
    boolean negotiated = "h2".equals(s.applicationLayerProtocol());
    h2 = options.http().h2() || negotiated ? new H2Streams(this, client, batch, negotiated) : null;
    channel
        .config()
        .setRecvByteBufAllocator(new FixedRecvByteBufAllocator(options.recvBufferBytes()));
    if (options.slowReaderPauseNanos() > 0) channel.config().setAutoRead(false);
    if (batch.plan.tls() == null) {
      LabVertx.onRawReads(
          s,
          msg -> {
            long now = System.nanoTime(); // first thing: the read has returned
            try {
              if (msg instanceof ByteBuf && s == socket) onRead(now, (ByteBuf) msg);
            } finally {
              ReferenceCountUtil.release(msg);
            }
          });
    } else {
      // Under TLS one socket read may complete several records, each decrypted on its own: a
      // read is everything one recv() made readable (docs/ARCHITECTURE.md), timed when its first
      // plaintext was handed over, so frames per read means the same as over plain TCP.
      LabVertx.aroundSocketReads(
          channel,
          raw -> {
            plainPending = 0;
            socketReadFull = raw >= options.recvBufferBytes();
          },
          () -> {
            if (plainPending > 0 && s == socket) onBytes(plainTime, plainPending, socketReadFull);
            plainPending = 0;
          });
      LabVertx.onRawReads(
          s,
          msg -> {
            long now = System.nanoTime();
            try {
              if (msg instanceof ByteBuf && s == socket) appendPlain(now, (ByteBuf) msg);
            } finally {
              ReferenceCountUtil.release(msg);
            }
          });
    }
    s.exceptionHandler(
        t -> {
          if (s != socket) return;
          String m = String.valueOf(t.getMessage());
          StreamError e =
              m.toLowerCase().contains("reset") ? StreamError.RESET : StreamError.PROTOCOL;
          if (meter != null) meter.fail(e, m);
          // the streams end as the meter judges when the connection closes
          if (h2 != null) h2.failAll(e, m);
        });
    s.closeHandler(
        v -> {
          if (s != socket) return;
          if (h2 != null) {
            h2.connectionClosed();
            return;
          }
          socket = null;
          reusable = false;
          if (meter != null) {
            meter.connectionClosed();
            finishStream();
          }
        });
  }

  private void send() {
    meter =
        new StreamMeter(
            batch.plan.expectedFrames(),
            options.recvBufferBytes(),
            batch.accepted,
            batch.plan.askedContentType());
    StreamMeter m = meter;
    long timeoutMs = Math.max(1, options.timeoutNanos() / 1_000_000);
    timerId =
        vertx.setTimer(
            timeoutMs,
            id -> {
              if (meter == m && !m.finished()) {
                m.fail(StreamError.TIMEOUT, "no complete response within " + timeoutMs + " ms");
                finishStream();
              }
            });
    byte[] request = batch.plan.bytes(options.keepAlive());
    socket
        .write(Buffer.buffer(request))
        .onComplete(
            ar -> {
              if (ar.succeeded()) m.requestWritten(System.nanoTime());
            });
    if (options.slowReaderPauseNanos() > 0) channel.read();
  }

  private void onRead(long now, ByteBuf buf) {
    if (meter == null && h2 == null) return; // bytes after a finished response on a closing socket
    int n = buf.readableBytes();
    if (scratch.length < n) scratch = new byte[n];
    buf.getBytes(buf.readerIndex(), scratch, 0, n);
    onBytes(now, n, n >= options.recvBufferBytes());
  }

  /** Plaintext a TLS record gave during the current socket read: kept until the read ends. */
  private void appendPlain(long now, ByteBuf buf) {
    int n = buf.readableBytes();
    if (plainPending == 0) plainTime = now;
    if (scratch.length < plainPending + n)
      scratch = Arrays.copyOf(scratch, Math.max(scratch.length * 2, plainPending + n));
    buf.getBytes(buf.readerIndex(), scratch, plainPending, n);
    plainPending += n;
  }

  /**
   * One read of {@code n} bytes, now in scratch, that returned at {@code now}; {@code full}: it
   * filled the receive buffer.
   */
  private void onBytes(long now, int n, boolean full) {
    if (h2 != null) {
      h2.read(now, scratch, n, full);
      return;
    }
    if (meter == null) return;
    int before = meter.framesSoFar();
    meter.onRead(now, scratch, 0, n, full);
    read(meter, now, before);
    if (meter.finished()) {
      finishStream();
    } else {
      readAgainAfterThePause();
    }
  }

  /** A stream's meter is done with a read: the observer hears of the frames it brought. */
  void read(StreamMeter m, long now, int framesBefore) {
    m.readDone(System.nanoTime());
    MeteredClient.ReadObserver o = client.observer();
    if (o != null && m.framesSoFar() > framesBefore)
      o.onFrames(m.sinceRequest(now), m.framesSoFar(), m.framesSoFar() - framesBefore);
  }

  /** A slow reader (--slow-reader): the next read only after the pause. */
  void readAgainAfterThePause() {
    if (options.slowReaderPauseNanos() <= 0) return;
    Channel ch = channel;
    ch.eventLoop()
        .schedule(
            () -> {
              if (ch.isActive()) ch.read();
            },
            options.slowReaderPauseNanos(),
            TimeUnit.NANOSECONDS);
  }

  private void finishStream() {
    StreamMeter m = meter;
    if (m == null) return;
    meter = null;
    vertx.cancelTimer(timerId);
    StreamResult r = m.result();
    batch.record(r);
    if (!r.ok() || !r.complete() || !reusable || m.serverWillClose()) {
      NetSocket s = socket;
      socket = null;
      if (s != null) s.close();
    }
    next();
  }
}
