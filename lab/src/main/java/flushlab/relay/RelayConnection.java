package flushlab.relay;

import flushlab.core.IdleWatch;
import flushlab.core.LabVertx;
import flushlab.core.Units;
import flushlab.http.Headers;
import flushlab.http.HttpParseException;
import flushlab.http.HttpResponseParser;
import flushlab.relay.shaper.Chunk;
import flushlab.relay.shaper.Shaper;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.relay.shaper.Stage;
import io.netty.channel.Channel;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One client exchange through the relay (an HTTP/1.1 client's connection, or one stream of an
 * HTTP/2 client's: {@link ClientSide}): the request bytes go upstream untouched; the response bytes
 * come back through the shaper chain to the {@link ClientWriter}. The response is parsed only to
 * know where responses start and end (the buffering shapers and cork need that); the bytes
 * themselves are forwarded as they came. All on the client connection's event loop.
 */
final class RelayConnection {
  private final ClientSide client;
  private final RelayOptions options;
  private final Upstream target;
  private final UpstreamPool pool;
  private final RelayLog log;
  private final String name;
  private final FlowControl flow;

  private final List<Shaper> shapers = new ArrayList<>();

  /** The shapers that read the requests (a compressing proxy), usually none. */
  private final List<Shaper> requestReaders = new ArrayList<>();

  private final ClientWriter writer;
  private final Stage head;
  private final ConnectionContext ctx;
  private final HttpResponseParser parser;
  private final RequestPath requests;

  /** Reused for parsing what upstream sends, so a read allocates nothing here. */
  private byte[] scratch = new byte[16 * 1024];

  private NetSocket upstream;
  private Channel upstreamChannel;
  private boolean opaque;
  private boolean closed;
  private Headers pendingHead;

  /** Request bytes went upstream and no response head has come back since. */
  private boolean awaitingResponse;

  private int pendingEnds;

  /** Bytes from the client and from upstream so far, for the idle watch. */
  private long bytesIn;

  private IdleWatch idleWatch;

  /**
   * Makes the exchange of one stream of an HTTP/2 client: its own shapers and upstream, on this
   * connection's loop.
   */
  private final Function<ClientSide, RelayConnection> streams;

  private final Runnable onClientClosed;

  /**
   * The client spoke HTTP/2 from its first bytes: its streams are this edge's, not this
   * connection's.
   */
  private H2Edge h2;

  private boolean sawClientByte;

  RelayConnection(
      ClientSide client,
      RelayOptions options,
      ConnectionPlan plan,
      Upstream target,
      UpstreamPool pool,
      RelayLog log,
      long id,
      AtomicLong upstreamPauses,
      Runnable onClientClosed,
      HeldBytes relayHeld,
      Function<ClientSide, RelayConnection> streams) {
    this.streams = streams;
    this.onClientClosed = onClientClosed;
    this.flow = new FlowControl(upstreamPauses);
    this.client = client;
    this.options = options;
    this.target = target;
    this.pool = pool;
    this.log = log;
    this.name = "conn " + id + " from " + client.describe();
    this.ctx =
        new ConnectionContext(client.channel(), client::writable, flow, log, name, relayHeld);
    boolean absorbed = false;
    this.requests = new RequestPath(ctx, plan.requestDelayNanos(), () -> closed, this::fail);
    for (ShaperRegistry.Spec spec : plan.response()) {
      Shaper s = spec.create();
      shapers.add(s);
      if (s.readsRequests()) requestReaders.add(s);
      absorbed |= s.absorbsClientBackPressure();
    }
    this.writer = new ClientWriter(client, flow, !absorbed, ctx);
    requests.attachClient(client.requestValve(() -> !closed));
    Stage nextStage = writer;
    for (int i = shapers.size() - 1; i >= 0; i--) {
      shapers.get(i).wire(nextStage, ctx);
      nextStage = shapers.get(i);
    }
    this.head = nextStage;
    ctx.onFail(() -> fail(ctx.failure()));
    this.parser =
        new HttpResponseParser(
            new HttpResponseParser.Listener() {
              @Override
              public void onHead(int status, String reason, Headers headers) {
                pendingHead = headers;
                awaitingResponse = false;
              }

              @Override
              public void onBody(byte[] bytes, int off, int len) {}

              @Override
              public void onComplete() {
                pendingEnds++;
              }
            });
    client.onWritable(writer::writable);
    if (client instanceof SocketClient socket) {
      NetSocket so = socket.socket();
      so.handler(this::fromClient);
      so.closeHandler(
          v -> {
            clientGone();
            if (h2 != null) h2.clientClosed();
          });
      so.exceptionHandler(t -> log.log(name + ": client error: " + t.getMessage()));
    } else {
      sawClientByte = true; // a stream of an HTTP/2 client: its bytes are HTTP/1.1 its edge made
    }
    // nothing moved in any direction: bytes a shaper holds while upstream still sends are movement
    idleWatch =
        new IdleWatch(
            client.channel().eventLoop(),
            options.idleTimeoutNanos(),
            () -> bytesIn + writer.bytesTotal(),
            () -> {
              if (closed) return;
              log.log(
                  name
                      + ": nothing moved for "
                      + Units.formatDuration(options.idleTimeoutNanos())
                      + "; closing");
              client.close();
            });
    connectUpstream();
    if (client instanceof SocketClient socket
        && "h2".equals(socket.socket().applicationLayerProtocol())) {
      sawClientByte = true; // TLS with ALPN h2: HTTP/2 from the first byte
      becomeH2(Buffer.buffer(), "ALPN h2");
    }
  }

  /**
   * The client went: its connection closed, or its HTTP/2 stream ended or was reset. Everything
   * this exchange held goes.
   */
  void clientGone() {
    onClientClosed.run();
    clientClosed();
  }

  private void connectUpstream() {
    NetSocket pooled = options.poolUpstream() ? pool.take() : null;
    if (pooled != null) {
      attachUpstream(pooled);
      return;
    }
    requests.connecting(); // hold the request until upstream is there
    long delay = 0;
    for (Shaper s : shapers) delay += s.connectDelayNanos();
    Runnable connect =
        () ->
            target
                .connect()
                .onComplete(
                    ar -> {
                      if (closed) {
                        if (ar.succeeded()) ar.result().close();
                        return;
                      }
                      if (ar.failed()) {
                        fail(
                            "cannot connect to upstream "
                                + options.upstreamHost()
                                + ":"
                                + options.upstreamPort()
                                + ": "
                                + ar.cause().getMessage());
                        return;
                      }
                      attachUpstream(ar.result());
                    });
    if (delay > 0) {
      ctx.schedule(connect, delay);
    } else {
      connect.run();
    }
  }

  private void attachUpstream(NetSocket up) {
    upstream = up;
    upstreamChannel = LabVertx.channel(up);
    flow.attach(FlowControl.Valve.autoRead(upstreamChannel, () -> true));
    up.handler(this::fromUpstream);
    up.closeHandler(v -> upstreamClosed());
    up.exceptionHandler(t -> log.log(name + ": upstream error: " + t.getMessage()));
    requests.attach(up);
  }

  /** Request bytes from the client (its socket, or its stream's edge as HTTP/1.1). */
  void fromClient(Buffer b) {
    if (!sawClientByte) {
      sawClientByte = true;
      if (startsHttp2(b)) {
        becomeH2(b, "prior knowledge");
        return;
      }
    }
    awaitingResponse = true;
    bytesIn += b.length();
    for (int i = 0; i < requestReaders.size(); i++) requestReaders.get(i).onRequestBytes(b);
    requests.forward(b);
  }

  /**
   * Every byte read from upstream is forwarded: parsing only marks where responses start and end.
   */
  private void fromUpstream(Buffer b) {
    long now = System.nanoTime();
    bytesIn += b.length();
    if (!opaque) {
      int n = b.length();
      if (scratch.length < n) scratch = new byte[Math.max(n, scratch.length * 2)];
      b.getBytes(0, n, scratch, 0);
      try {
        parser.feed(scratch, 0, n);
      } catch (HttpParseException e) {
        opaque = true; // not HTTP we understand: forward as a plain byte stream from here on
        log.log(
            name
                + ": upstream response is not parseable HTTP ("
                + e.getMessage()
                + "); relaying it as opaque bytes");
      }
    }
    if (pendingHead != null) {
      Headers h = pendingHead;
      pendingHead = null;
      head.accept(Chunk.responseStart(h, now));
    }
    head.accept(Chunk.data(b, now));
    while (pendingEnds > 0) {
      pendingEnds--;
      head.accept(Chunk.event(Chunk.Kind.RESPONSE_END, now));
    }
  }

  private void upstreamClosed() {
    if (closed) return;
    long now = System.nanoTime();
    if (!opaque && parser.idle() && awaitingResponse) {
      fail(
          "upstream "
              + options.upstreamHost()
              + ":"
              + options.upstreamPort()
              + " closed the connection without answering the request");
      return;
    }
    boolean cleanEnd = opaque || parser.connectionClosed();
    while (pendingEnds > 0) {
      pendingEnds--;
      head.accept(Chunk.event(Chunk.Kind.RESPONSE_END, now));
    }
    if (!cleanEnd) {
      log.log(name + ": upstream closed in the middle of a response");
      if (writer.nothingSentThisResponse() && writer.bytesTotal() == 0) {
        fail(
            "upstream "
                + options.upstreamHost()
                + ":"
                + options.upstreamPort()
                + " closed before answering");
        return;
      }
    }
    head.accept(Chunk.event(Chunk.Kind.CLOSE, now));
    upstream = null;
    requests.detach();
  }

  /** HTTP/2 by prior knowledge: its preface starts "PRI", which no HTTP/1.1 method does. */
  private static boolean startsHttp2(Buffer b) {
    return b.length() >= 3 && b.getByte(0) == 'P' && b.getByte(1) == 'R' && b.getByte(2) == 'I';
  }

  /**
   * Hands the client to an HTTP/2 edge: this connection's own shapers and upstream are let go (each
   * stream gets its own exchange, made by {@code streams}) and only its close still counts.
   */
  private void becomeH2(Buffer first, String how) {
    log.log(name + ": HTTP/2 (" + how + "): each stream is relayed as its own HTTP/1.1 exchange");
    clientClosed();
    h2 =
        new H2Edge(
            ((SocketClient) client).socket(),
            streams,
            log,
            name,
            first,
            options.idleTimeoutNanos(),
            options.requestTimeoutNanos());
  }

  private void clientClosed() {
    if (idleWatch != null) idleWatch.cancel();
    if (closed) return;
    closed = true;
    for (Shaper s : shapers) s.release();
    ctx.releaseAllHeld();
    NetSocket up = upstream;
    upstream = null;
    requests.detach();
    if (up == null) return;
    if (options.poolUpstream() && parser.idle() && !opaque) {
      pool.give(up);
    } else {
      up.close();
    }
  }

  /** Ends this connection because of a reason the log and (when possible) a 502 carry. */
  private void fail(String reason) {
    log.log(name + ": " + reason);
    writer.failConnection(reason);
    for (Shaper s : shapers) s.release();
    ctx.releaseAllHeld();
    requests.drop();
    requests.detach();
    if (upstream != null) {
      upstream.close();
      upstream = null;
    }
  }
}
