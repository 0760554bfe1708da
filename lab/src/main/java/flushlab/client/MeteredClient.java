package flushlab.client;

import flushlab.coding.ContentCoding;
import flushlab.coding.NativeCodecs;
import flushlab.core.LabVertx;
import flushlab.http.HttpParseException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.ConnectOptions;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a batch of requests over raw TCP and meters every read. One data callback is one read from
 * the kernel (epoll: one successful recv(); see docs/ARCHITECTURE.md), each into a buffer of {@link
 * ClientOptions#recvBufferBytes()} like a recv() call with that size. A slow reader turns auto-read
 * off and asks the channel for exactly one read after each pause, so the kernel's buffers fill as
 * they would behind a slow client.
 *
 * <p>Threading: the whole batch runs on one event-loop context; no locking.
 */
public final class MeteredClient {
  /**
   * HTTP/2 answers (PING and SETTINGS acks, WINDOW_UPDATEs) queued for a server that reads none:
   * Netty's 10,000 PING acks, in bytes.
   */
  static final long MAX_UNREAD_REPLY_BYTES = 10_000L * 17;

  private final Vertx vertx;
  private final NetClient net;
  private final ClientOptions options;
  private final AtomicInteger finishedStreams = new AtomicInteger();
  private volatile boolean aborted;
  private volatile ReadObserver observer;

  /**
   * Told of every read that completed frames, on the client's loop: for live views (the console),
   * never for measuring.
   */
  public interface ReadObserver {
    /**
     * @param sinceRequestNanos the read's time from the request being written
     * @param framesSoFar the stream's frames so far, this read's included
     * @param framesThisRead the frames this read completed
     */
    void onFrames(long sinceRequestNanos, int framesSoFar, int framesThisRead);
  }

  /** From the next read on, tells {@code o} of every read that completes frames (null: nobody). */
  public void observeReads(ReadObserver o) {
    this.observer = o;
  }

  public MeteredClient(Vertx vertx, ClientOptions options) {
    NativeCodecs.preload(); // not on an event loop, at the first br or zstd stream
    this.vertx = vertx;
    this.options = options;
    // TLS handshakes' heavy steps (certificate checks, key agreement) on the worker pool: on the
    // client's one event loop they held the reads of every other stream for milliseconds.
    this.net =
        vertx.createNetClient(
            new NetClientOptions()
                .setSslEngineOptions(new JdkSSLEngineOptions().setUseWorkerThread(true))
                .setTcpNoDelay(true)
                .setConnectTimeout(
                    (int) Math.min(30_000, Math.max(1, options.timeoutNanos() / 1_000_000))));
  }

  /** Streams finished so far in the running batch (for progress lines). */
  public int finishedStreams() {
    return finishedStreams.get();
  }

  public Future<BatchResult> run(RequestPlan plan) {
    Promise<BatchResult> promise = Promise.promise();
    Context context = vertx.getOrCreateContext();
    context.runOnContext(v -> new Batch(plan, promise).start());
    return promise.future();
  }

  public Future<Void> close() {
    return net.close();
  }

  /**
   * Stops the running batch now (Ctrl-C): no new request starts and open connections are closed, so
   * the batch completes at once, its unfinished streams failed. The caller discards it.
   */
  public Future<Void> abort() {
    aborted = true;
    return net.close();
  }

  /** True once {@link #abort()} was called. */
  public boolean aborted() {
    return aborted;
  }

  private final class Batch {
    private final RequestPlan plan;

    /** The content codings the request accepts, read once per batch. */
    private final Set<ContentCoding> accepted;

    private final Promise<BatchResult> promise;
    private final List<StreamResult> results = new ArrayList<>();
    private int issued;
    private int workersRunning;

    Batch(RequestPlan plan, Promise<BatchResult> promise) {
      this.plan = plan;
      this.accepted = plan.acceptedCodings();
      this.promise = promise;
    }

    void start() {
      int inFlight = Math.min(options.concurrency(), options.requests());
      // HTTP/2 with several streams per connection: one worker (connection) per that many streams
      // in flight
      int workers =
          options.multiplexed()
              ? (inFlight + options.streamsPerConnection() - 1) / options.streamsPerConnection()
              : inFlight;
      workersRunning = workers;
      for (int i = 0; i < workers; i++) new Worker(this).next();
    }

    boolean takeRequest() {
      if (aborted || issued >= options.requests()) return false;
      issued++;
      return true;
    }

    void record(StreamResult r) {
      results.add(r);
      finishedStreams.incrementAndGet();
    }

    void workerDone() {
      if (--workersRunning == 0) promise.complete(new BatchResult(results));
    }
  }

  /** An HTTP/2 stream being measured: its id, its meter and its timeout timer. */
  private static final class OpenStream {
    final int id;
    final StreamMeter meter;
    long timer = -1;

    OpenStream(int id, StreamMeter meter) {
      this.id = id;
      this.meter = meter;
    }
  }

  /** Sends one request after another, reusing its connection when keep-alive allows. */
  private final class Worker {
    private final Batch batch;
    private NetSocket socket;
    private Channel channel;
    private StreamMeter meter;
    private long timerId = -1;

    /** Bytes of HTTP/2 answers written while the connection's queue held unsent bytes, in a row. */
    private long unreadReplyBytes;

    private byte[] scratch = new byte[options.recvBufferBytes()];
    private boolean reusable;

    /**
     * TLS only: plaintext bytes of the socket read in progress, and when the first of them came.
     */
    private int plainPending;

    private long plainTime;

    /**
     * TLS only: the socket read in progress filled the receive buffer (more was waiting in the
     * kernel).
     */
    private boolean socketReadFull;

    /**
     * HTTP/2 (h2 or h2c): the connection's session, which turns each read into what it means for
     * the stream; null on HTTP/1.1.
     */
    private H2ClientSession h2;

    /**
     * HTTP/2: each open stream's meter, by stream id (one at a time unless the options multiplex
     * several); null on HTTP/1.1, where {@link #meter} is the response's.
     */
    private List<OpenStream> streams;

    /**
     * The open streams' ids as a read began, reused read after read: finishing one may open the
     * next, so a read walks this copy (no list, iterator or boxed id per read).
     */
    private int[] openIds = new int[1];

    Worker(Batch batch) {
      this.batch = batch;
    }

    void next() {
      if (!batch.takeRequest()) {
        if (socket != null) socket.close();
        batch.workerDone();
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
              ? net.connect(plan.port(), plan.host())
              : net.connect(
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
            if (streams != null) {
              openStream();
              while (options.multiplexed()
                  && streams.size() < options.streamsPerConnection()
                  && batch.takeRequest()) openStream();
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

    /**
     * The windows this client advertises: the option when set, else what the profile's client does.
     */
    private int streamWindow() {
      return options.h2Window() > 0
          ? options.h2Window()
          : batch.plan.profile().h2Windows().stream();
    }

    private int connectionWindow() {
      return options.h2Window() > 0
          ? options.h2Window()
          : batch.plan.profile().h2Windows().connection();
    }

    private void attach(NetSocket s) {
      socket = s;
      channel = LabVertx.channel(s);
      reusable = options.keepAlive();
      boolean negotiated = "h2".equals(s.applicationLayerProtocol());
      h2 =
          options.http().h2() || negotiated
              ? new H2ClientSession(
                  options.http() == HttpVersion.H2 || negotiated,
                  streamWindow(),
                  connectionWindow(),
                  options.http() == HttpVersion.H2C_UPGRADE)
              : null;
      streams = h2 != null ? new ArrayList<>() : null;
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
            if (streams != null) for (OpenStream open : streams) open.meter.fail(e, m);
          });
      s.closeHandler(
          v -> {
            if (s != socket) return;
            if (streams != null) {
              closeStreams();
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
      if (meter == null && streams == null)
        return; // bytes after a finished response on a closing socket
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
      if (streams != null) {
        readStreams(now, n, full);
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
    private void read(StreamMeter m, long now, int framesBefore) {
      m.readDone(System.nanoTime());
      ReadObserver o = observer;
      if (o != null && m.framesSoFar() > framesBefore)
        o.onFrames(m.sinceRequest(now), m.framesSoFar(), m.framesSoFar() - framesBefore);
    }

    /** A slow reader (--slow-reader): the next read only after the pause. */
    private void readAgainAfterThePause() {
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

    /**
     * What the HTTP/2 session owes the server after a read (acks, WINDOW_UPDATEs): one pooled
     * buffer, written at once.
     */
    private void writeH2Replies() {
      int n = h2.replyLength();
      if (n == 0) return;
      // a server that sends PINGs or SETTINGS and reads none of the answers would grow this
      // client's
      // queue without end: past Netty's own cap for the same (in bytes of answers), the connection
      // fails
      if (LabVertx.backedUp(channel)) {
        unreadReplyBytes += n;
        if (unreadReplyBytes > MAX_UNREAD_REPLY_BYTES) {
          h2.fail(
              "the server sent PINGs or SETTINGS faster than it read the answers ("
                  + unreadReplyBytes
                  + " bytes of them queued)");
          h2.repliesSent();
          return;
        }
      } else {
        unreadReplyBytes = 0;
      }
      if (socket != null && channel.isActive()) {
        ByteBuf out = channel.alloc().directBuffer(n);
        out.writeBytes(h2.replyBytes(), 0, n);
        channel.writeAndFlush(out, channel.voidPromise());
      }
      h2.repliesSent();
    }

    /**
     * HTTP/2: one more request on this connection, with its own meter and timeout (the first, or
     * one beside those open when the options multiplex several).
     */
    private void openStream() {
      StreamMeter m =
          new StreamMeter(
              batch.plan.expectedFrames(),
              options.recvBufferBytes(),
              batch.accepted,
              batch.plan.askedContentType());
      // one stream at a time keeps the keep-alive option (an h2c Upgrade's request is HTTP/1.1)
      byte[] request = h2.request(batch.plan, options.multiplexed() || options.keepAlive());
      int id = h2.lastStreamId();
      OpenStream open = new OpenStream(id, m);
      streams.add(open);
      long timeoutMs = Math.max(1, options.timeoutNanos() / 1_000_000);
      open.timer =
          vertx.setTimer(
              timeoutMs,
              t -> {
                if (streams != null && find(id) == open && !m.finished()) {
                  m.fail(StreamError.TIMEOUT, "no complete response within " + timeoutMs + " ms");
                  finishStream(id);
                }
              });
      socket
          .write(Buffer.buffer(request))
          .onComplete(
              ar -> {
                if (ar.succeeded()) m.requestWritten(System.nanoTime());
              });
      if (options.slowReaderPauseNanos() > 0 && streams.size() == 1) channel.read();
    }

    /**
     * One socket read on an HTTP/2 connection: each open stream's meter reads what the read brought
     * for it (a stream it brought nothing for has no read); a stream alone on the connection is
     * given the read's wire bytes, one beside others its DATA. Between streams (or before the
     * first: a server's SETTINGS right after the TLS handshake) the connection's frames still
     * count, and the acks and window updates the session owes go out at once.
     */
    private void readStreams(long now, int n, boolean full) {
      try {
        h2.read(scratch, 0, n);
      } catch (HttpParseException e) {
        for (OpenStream open : streams)
          open.meter.fail(StreamError.PROTOCOL, "HTTP/2: " + e.getMessage());
        if (streams.isEmpty() && socket != null) socket.close();
        int count = snapshotIds();
        for (int k = 0; k < count; k++) finishStream(openIds[k]);
        return;
      }
      writeH2Replies();
      boolean alone = streams.size() == 1;
      int count = snapshotIds();
      for (int k = 0; k < count; k++) {
        int id = openIds[k];
        OpenStream open = find(id);
        H2ClientSession.Out o = h2.out(id);
        if (open == null || o == null) continue;
        StreamMeter m = open.meter;
        if (o.h1Len > 0) {
          int before = m.framesSoFar();
          m.onRead(now, o.h1, 0, o.h1Len, full, alone ? n : o.consumed > 0 ? o.consumed : o.h1Len);
          read(m, now, before);
        }
        if (o.failure != null || h2.connectionFailure() != null) {
          m.fail(
              o.reset ? StreamError.RESET : StreamError.PROTOCOL,
              o.failure != null ? o.failure : h2.connectionFailure());
        }
        if (m.finished()) finishStream(id);
      }
      if (streams != null && !streams.isEmpty()) readAgainAfterThePause();
    }

    /**
     * An HTTP/2 stream ended: recorded; the next request takes its place on the connection, or the
     * connection closes once no stream is left (and the next request, if any, opens another). One
     * stream at a time, the connection is kept only as HTTP/1.1 keeps one: the response complete,
     * keep-alive on, the server not closing.
     */
    private void finishStream(int id) {
      OpenStream open = find(id);
      if (open == null) return;
      streams.remove(open);
      vertx.cancelTimer(open.timer);
      StreamMeter m = open.meter;
      StreamResult r = m.result();
      if (h2.spoken() != HttpVersion.HTTP_1_1) r = r.withH2(h2.stats(id));
      h2.forget(id);
      batch.record(r);
      if (!options.multiplexed() && (!r.ok() || !r.complete() || m.serverWillClose()))
        reusable = false;
      boolean again = socket != null && (options.multiplexed() || reusable);
      if (again && batch.takeRequest()) {
        openStream();
      } else if (streams.isEmpty()) {
        NetSocket s = socket;
        socket = null;
        if (s != null) s.close();
        if (again) batch.workerDone();
        else next();
      }
    }

    /**
     * The connection closed under its streams: each is ended as the meter judges (truncated, unless
     * complete); the rest of the batch goes on anew.
     */
    private void closeStreams() {
      socket = null;
      List<OpenStream> closed = List.copyOf(streams);
      streams.clear();
      for (OpenStream open : closed) {
        vertx.cancelTimer(open.timer);
        open.meter.connectionClosed();
        StreamResult r = open.meter.result();
        batch.record(
            h2 != null && h2.spoken() != HttpVersion.HTTP_1_1 ? r.withH2(h2.stats(open.id)) : r);
      }
      next();
    }

    /** The open stream of this id, by a scan of the few open (null once finished). */
    private OpenStream find(int id) {
      for (int k = 0; k < streams.size(); k++) {
        OpenStream open = streams.get(k);
        if (open.id == id) return open;
      }
      return null;
    }

    /** The open streams' ids into {@link #openIds}; how many. */
    private int snapshotIds() {
      int count = streams.size();
      if (openIds.length < count) openIds = new int[Math.max(count, openIds.length * 2)];
      for (int k = 0; k < count; k++) openIds[k] = streams.get(k).id;
      return count;
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
}
