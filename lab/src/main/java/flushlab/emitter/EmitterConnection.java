package flushlab.emitter;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.coding.ContentCoding;
import flushlab.coding.StreamCompressor;
import flushlab.core.HiccupMeter;
import flushlab.core.IdleWatch;
import flushlab.core.Json;
import flushlab.core.LabVertx;
import flushlab.core.Units;
import flushlab.http.H2;
import flushlab.http.HttpParseException;
import flushlab.http.HttpRequestParser;
import flushlab.stream.Compression;
import flushlab.stream.ResponseHeader;
import flushlab.stream.StreamSpec;
import flushlab.stream.Transfer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client connection to the emitter: parses requests (keep-alive, one at a time, pipelined ones
 * queued), routes them, and runs at most one {@link PacedStream} at a time. Runs on the
 * connection's event loop only.
 */
final class EmitterConnection {
  private static final int MAX_PIPELINED = 16;

  private final NetSocket socket;
  private final Channel channel;
  private final AuditRegistry audits;
  private final AtomicLong streamIds;
  private final Admission admission;
  private final long requestTimeoutNanos;
  private final HttpRequestParser parser;
  private final ArrayDeque<HttpRequestParser.Request> queued = new ArrayDeque<>();
  private PacedStream stream;

  /** HTTP/2: the streams being answered, by stream id, and which stream each request came on. */
  private final Map<Integer, PacedStream> h2Streams = new HashMap<>();

  private final IdentityHashMap<HttpRequestParser.Request, Integer> h2RequestStreams =
      new IdentityHashMap<>();

  /** Non-streamed completions waiting out their delay, by HTTP/2 stream (0 on HTTP/1.1). */
  private final Map<Integer, ScheduledFuture<?>> completions = new HashMap<>();

  private boolean busy;
  private boolean closing;

  /**
   * Request bytes this connection holds (unfinished and queued requests), counted in the shared
   * budget.
   */
  private long heldRequestBytes;

  private long queuedRequestBytes;
  private ScheduledFuture<?> requestTimer;

  /**
   * Closes the connection when no request byte was read and no frame written for the idle timeout.
   */
  private IdleWatch idleWatch;

  private final long idleTimeoutNanos;

  /** When set, /v1/* requests must carry "Authorization: Bearer" this. */
  private final String apiKey;

  private long bytesRead;

  /** HTTP/2 (h2 by ALPN, h2c by its preface): the connection's session; null on HTTP/1.x. */
  private H2ServerSession h2;

  /**
   * Until the first bytes say whether this is h2c's preface or an HTTP/1.1 request, how many
   * matched the preface.
   */
  private int prefaceMatched;

  private boolean protocolKnown;

  /** After an h2c Upgrade: bytes of the client's preface still to come before its frames. */
  private int prefaceToSkip;

  EmitterConnection(
      NetSocket socket,
      AuditRegistry audits,
      AtomicLong streamIds,
      Admission admission,
      long requestTimeoutNanos,
      long idleTimeoutNanos,
      String apiKey) {
    this.apiKey = apiKey;
    this.socket = socket;
    this.channel = LabVertx.channel(socket);
    this.audits = audits;
    this.streamIds = streamIds;
    this.admission = admission;
    this.requestTimeoutNanos = requestTimeoutNanos;
    this.idleTimeoutNanos = idleTimeoutNanos;
    this.parser = new HttpRequestParser(this::onRequest);
    boolean admitted = admission.connectionOpened();
    socket.closeHandler(v -> closed());
    // A client that resets the connection (one that stops reading mid-stream, a proxy dropping an
    // upstream connection) is ordinary here: the close handler cleans up; nothing to report.
    socket.exceptionHandler(t -> {});
    if (!admitted) {
      respondAndClose(
          503,
          "flushlab emitter: too many connections (at most "
              + admission.maxConnections()
              + " at once; see --max-connections)");
      return;
    }
    LabVertx.onWritable(
        channel,
        () -> {
          if (stream != null) stream.writable();
          for (PacedStream p : List.copyOf(h2Streams.values())) p.writable();
        });
    socket.handler(this::onBytes);
    if ("h2".equals(socket.applicationLayerProtocol())) startH2(); // TLS with ALPN h2
    idleWatch =
        new IdleWatch(
            channel.eventLoop(),
            idleTimeoutNanos,
            () -> bytesRead + (stream == null ? 0 : stream.progress()) + h2Progress(),
            () -> {
              if (closing) return;
              closing = true;
              channel.close();
            });
  }

  private void onBytes(Buffer buffer) {
    if (closing) return;
    byte[] bytes = buffer.getBytes();
    bytesRead += bytes.length;
    if (h2 != null) {
      int start = 0;
      while (prefaceToSkip > 0 && start < bytes.length) {
        if (bytes[start] != H2.PREFACE[H2.PREFACE.length - prefaceToSkip]) {
          respondAndClose(400, "after h2c Upgrade the client must send HTTP/2's preface");
          return;
        }
        start++;
        prefaceToSkip--;
      }
      feedH2(bytes, start);
      return;
    }
    if (!protocolKnown) {
      // h2c by prior knowledge starts with the preface; anything else is HTTP/1.x from its first
      // differing byte
      int n = Math.min(bytes.length, H2.PREFACE.length - prefaceMatched);
      int i = 0;
      while (i < n && bytes[i] == H2.PREFACE[prefaceMatched + i]) i++;
      if (i == n && prefaceMatched + n == H2.PREFACE.length) {
        startH2();
        feedH2(bytes, n);
        return;
      }
      if (i == n) {
        prefaceMatched += n; // so far, the preface: wait for more
        return;
      }
      protocolKnown = true;
      if (prefaceMatched > 0) {
        try {
          parser.feed(H2.PREFACE, 0, prefaceMatched); // the bytes held back were HTTP/1.x after all
        } catch (HttpParseException e) {
          respondAndClose(e.status(), e.getMessage());
          return;
        }
      }
    }
    try {
      parser.feed(bytes, 0, bytes.length);
    } catch (HttpParseException e) {
      respondAndClose(e.status(), e.getMessage());
      return;
    }
    if (!holdRequestBytes()) {
      respondAndClose(
          503,
          "flushlab emitter: too many unanswered request bytes over all connections (budget "
              + (Admission.REQUEST_BYTES_BUDGET >> 20)
              + " MiB); retry later");
      return;
    }
    startRequestTimerIfNeeded();
  }

  /**
   * HTTP/2 bytes from the client: into the session, then its unfinished requests held to the shared
   * request-bytes budget and to the request timeout, as HTTP/1.1's are.
   */
  private void feedH2(byte[] bytes, int from) {
    if (!h2.feed(bytes, from, bytes.length - from)) return;
    long now = h2.heldRequestBytes();
    if (!admission.holdRequestBytes(now - heldRequestBytes)) {
      respondAndClose(
          503, "flushlab emitter: too many unanswered request bytes over all connections");
      return;
    }
    heldRequestBytes = now;
    scheduleH2RequestTimeout();
  }

  /** One timer per connection, at the deadline of its oldest request not complete yet. */
  private void scheduleH2RequestTimeout() {
    long oldest = h2.oldestIncompleteNanos();
    if (oldest == Long.MAX_VALUE || requestTimer != null || closing) return;
    long delay = Math.max(0, oldest + requestTimeoutNanos - System.nanoTime());
    requestTimer =
        channel
            .eventLoop()
            .schedule(
                () -> {
                  requestTimer = null;
                  if (closing) return;
                  boolean open =
                      h2.expire(
                          System.nanoTime() - requestTimeoutNanos + 1,
                          "was not complete within " + Units.formatDuration(requestTimeoutNanos));
                  long now = h2.heldRequestBytes();
                  admission.holdRequestBytes(now - heldRequestBytes);
                  heldRequestBytes = now;
                  if (open) scheduleH2RequestTimeout();
                },
                delay,
                TimeUnit.NANOSECONDS);
  }

  /**
   * h2c by Upgrade (RFC 7540 3.2): a GET asking for it with Upgrade: h2c and HTTP2-Settings is
   * answered 101, and then, as stream 1 of HTTP/2, with what it asked for. False (and nothing done)
   * for any other request.
   */
  private boolean h2cUpgrade(HttpRequestParser.Request r) {
    String upgrade = r.headers().get("Upgrade");
    String settings = r.headers().get("HTTP2-Settings");
    if (upgrade == null
        || settings == null
        || !upgrade.toLowerCase(Locale.ROOT).contains("h2c")
        || r.body().length > 0
        || !"HTTP/1.1".equals(r.version())) {
      return false;
    }
    int[] values = H2ServerSession.settingsHeader(settings);
    if (values == null)
      return false; // a header that does not decode: answered over HTTP/1.1, as the RFC allows
    channel.writeAndFlush(
        Unpooled.wrappedBuffer(
            "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII)));
    startH2();
    h2.adoptUpgradedStream(values);
    prefaceToSkip = H2.PREFACE.length;
    onH2Request(1, r);
    return true;
  }

  /**
   * From now on this connection speaks HTTP/2: frames in, HEADERS and DATA out, one stream at a
   * time.
   */
  private void startH2() {
    protocolKnown = true;
    h2 =
        new H2ServerSession(
            new H2ServerSession.Handler() {
              @Override
              public void onRequest(int streamId, HttpRequestParser.Request request) {
                onH2Request(streamId, request);
              }

              @Override
              public void onStreamReset(int streamId, String why) {
                PacedStream p = h2Streams.get(streamId);
                if (p != null) p.cancel();
                ScheduledFuture<?> later = completions.remove(streamId);
                if (later != null)
                  later.cancel(
                      false); // a completion nobody waits for anymore, with its request, is dropped
                // now
              }

              @Override
              public void onWindow() {
                for (PacedStream p : List.copyOf(h2Streams.values())) p.writable();
              }

              @Override
              public void onConnectionError(String why) {
                closing = true;
                // GOAWAY goes out with what is queued before it, then a FIN; a client whose queue
                // is backed
                // up already (one that floods PINGs and reads nothing) would take none of it: cut
                // off at once
                if (backedUp()) LabVertx.closeNow(channel);
                else LabVertx.closeAfterFlush(channel, GOAWAY_GRACE_MS);
              }

              @Override
              public void write(ByteBuf bytes) {
                channel.writeAndFlush(bytes);
              }

              @Override
              public boolean backedUp() {
                return LabVertx.backedUp(channel);
              }
            });
  }

  /**
   * An HTTP/2 request: streams are answered side by side, so none waits for another (no queue,
   * unlike HTTP/1.1's).
   */
  private void onH2Request(int streamId, HttpRequestParser.Request request) {
    if (closing) return;
    h2RequestStreams.put(request, streamId);
    try {
      route(request);
    } catch (BadRequest | StreamSpec.Invalid e) {
      respond(request, 400, "text/plain", e.getMessage() + "\n");
    }
  }

  private long h2Progress() {
    long p = 0;
    for (PacedStream s : h2Streams.values()) p += s.progress();
    return p;
  }

  /**
   * A request has started arriving on a free connection: it must be complete within the timeout.
   */
  private void startRequestTimerIfNeeded() {
    if (!busy && !closing && !parser.idle() && requestTimer == null) {
      requestTimer =
          channel
              .eventLoop()
              .schedule(
                  () -> {
                    requestTimer = null;
                    respondAndClose(
                        408,
                        "flushlab emitter: the request was not complete within "
                            + Units.formatDuration(requestTimeoutNanos));
                  },
                  requestTimeoutNanos,
                  TimeUnit.NANOSECONDS);
    }
  }

  /** Brings this connection's share of the request-bytes budget up to date; false when over it. */
  private boolean holdRequestBytes() {
    long now = parser.bufferedBytes() + queuedRequestBytes;
    if (!admission.holdRequestBytes(now - heldRequestBytes)) return false;
    heldRequestBytes = now;
    return true;
  }

  private void closed() {
    closing = true;
    admission.connectionClosed();
    admission.holdRequestBytes(-heldRequestBytes);
    heldRequestBytes = 0;
    queued.clear();
    if (requestTimer != null) requestTimer.cancel(false);
    if (idleWatch != null) idleWatch.cancel();
    if (stream != null) stream.cancel();
    for (PacedStream p : List.copyOf(h2Streams.values())) p.cancel();
    for (ScheduledFuture<?> later : completions.values()) later.cancel(false);
    completions.clear();
  }

  private void onRequest(HttpRequestParser.Request request) {
    if (requestTimer != null) {
      requestTimer.cancel(false);
      requestTimer = null;
    }
    if (closing) return;
    if (h2 == null && !busy && h2cUpgrade(request)) return;
    if (busy) {
      if (queued.size() >= MAX_PIPELINED) {
        closing = true;
        socket.close();
        return;
      }
      queued.add(request);
      queuedRequestBytes += request.body().length;
      return;
    }
    busy = true;
    try {
      route(request);
    } catch (BadRequest | StreamSpec.Invalid e) {
      respond(request, 400, "text/plain", e.getMessage() + "\n");
    }
  }

  private void route(HttpRequestParser.Request r) {
    String target = r.target();
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String query = q < 0 ? "" : target.substring(q + 1);
    String method = r.method();
    if (path.equals("/sse")) {
      // POST too: a proxy may stream one method and buffer the other (a cloudflared quick tunnel
      // streamed POST and buffered GET)
      if (!method.equals("GET") && !method.equals("POST")) {
        respond(r, 405, "text/plain", "use GET or POST for /sse\n");
        return;
      }
      StreamSpec spec = StreamSpec.fromQuery(query);
      boolean ndjson = StreamSpec.isNdjson(spec.contentType());
      PlainFrameSource source =
          new PlainFrameSource(
              spec.frameCount(),
              spec.frameBytes(),
              h2 != null ? H2ServerSession.MAX_DATA_FRAME : PacedStream.MAX_WHOLE_EVENT_BYTES,
              ndjson);
      long length =
          spec.transfer() == Transfer.LENGTH ? (long) spec.frameCount() * spec.frameBytes() : -1;
      startStreamWithId(
          streamIds.incrementAndGet(),
          r,
          source,
          h2 == null && spec.transfer().chunkedFor(http11(r)),
          spec.thinkNanos(),
          spec.intervalNanos(),
          spec.responseHeaders(),
          spec.paced(),
          spec.compression(),
          spec.contentType(),
          length,
          spec.keepAliveNanos());
    } else if (path.startsWith("/v1/")) {
      try {
        routeOpenAi(r, method, path);
      } catch (BadRequest e) {
        OpenAiError error = OpenAiError.of(e);
        respond(r, error.status(), "application/json", error.body());
      }
    } else if (path.startsWith("/emitter/streams/") && method.equals("GET")) {
      long id;
      try {
        id = Long.parseLong(path.substring("/emitter/streams/".length()));
      } catch (NumberFormatException e) {
        respond(r, 400, "text/plain", "stream id must be a number\n");
        return;
      }
      PacingAudit.Summary summary = audits.summary(id);
      if (summary != null) {
        // judged here: only this process's meter saw the loop that wrote the stream
        respond(r, 200, "application/json", toJson(summary.judged(HiccupMeter.get().loopLedger())));
      } else if (audits.isRunning(id)) {
        respond(r, 409, "text/plain", "stream " + id + " is still running\n");
      } else {
        respond(
            r,
            404,
            "text/plain",
            "no audit for stream "
                + id
                + " (unknown, or older than the last "
                + AuditRegistry.MAX_SUMMARIES
                + " streams)\n");
      }
    } else if (path.equals("/healthz")) {
      respond(r, 200, "text/plain", "ok\n");
    } else {
      respond(
          r,
          404,
          "text/plain",
          "no route "
              + method
              + " "
              + path
              + " (routes: GET /sse, POST /v1/chat/completions, POST /v1/responses, GET /v1/models, GET /emitter/streams/{id}, GET /healthz)\n");
    }
  }

  private boolean keyMatches(String authorization) {
    if (authorization == null) return false;
    byte[] want = ("Bearer " + apiKey).getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(
        want, authorization.getBytes(StandardCharsets.UTF_8)); // no timing hint
  }

  /** OpenAI's routes: errors come back in OpenAI's JSON shape, which gateways and SDKs parse. */
  private void routeOpenAi(HttpRequestParser.Request r, String method, String path) {
    if (apiKey != null && !keyMatches(r.headers().get("Authorization")))
      throw OpenAiError.unauthorized();
    boolean chat = path.equals("/v1/chat/completions");
    if (chat || path.equals("/v1/responses")) {
      if (!method.equals("POST"))
        throw new OpenAiError(405, "invalid_request_error", null, null, "use POST for " + path);
      ChatRequestSpec spec =
          chat ? ChatRequestSpec.parseChat(r.body()) : ChatRequestSpec.parse(r.body());
      long created = System.currentTimeMillis() / 1000;
      if (!spec.stream()) {
        if (!chat)
          throw OpenAiError.invalid(
              "stream",
              "the flushlab emitter serves /v1/responses as a stream only: send \"stream\": true");
        completeLater(r, spec);
        return;
      }
      long id = streamIds.incrementAndGet();
      FrameSource source =
          chat
              ? new ChatFrameSource(id, spec, created)
              : new ResponsesFrameSource(id, spec, created);
      long totalBytes = (long) source.maxEventBytes() * spec.tokens() + source.trailer().length;
      if (totalBytes > StreamSpec.MAX_TOTAL_BYTES) {
        throw OpenAiError.invalid(
            "pi_tokens",
            "bad fields: pi_tokens x the event size makes up to "
                + totalBytes
                + " B (allowed: at most "
                + StreamSpec.MAX_TOTAL_BYTES
                + " B per stream; fewer tokens or a shorter model name)");
      }
      startStreamWithId(
          id,
          r,
          source,
          h2 == null && http11(r),
          spec.thinkNanos(),
          spec.delayNanos(),
          List.of(),
          spec.delayNanos() > 0,
          Compression.NONE,
          StreamSpec.DEFAULT_CONTENT_TYPE,
          -1,
          0);
    } else if (path.equals("/v1/models") && method.equals("GET")) {
      ObjectNode root = Json.MAPPER.createObjectNode().put("object", "list");
      ArrayNode data = root.putArray("data");
      data.addObject()
          .put("id", "flushlab-echo")
          .put("object", "model")
          .put("created", 0)
          .put("owned_by", "flushlab");
      respond(r, 200, "application/json", root.toString());
    } else {
      throw OpenAiError.noRoute(method, path);
    }
  }

  /**
   * HTTP/1.0 has no chunked encoding: such a client (nginx's default upstream) gets a
   * close-delimited body, unless the request asks for transfer=chunked-always (as some servers send
   * chunked to anyone, which is how a proxy may see it in the wild).
   */
  private static boolean http11(HttpRequestParser.Request r) {
    return !"HTTP/1.0".equals(r.version());
  }

  private void startStreamWithId(
      long id,
      HttpRequestParser.Request r,
      FrameSource source,
      boolean chunked,
      long think,
      long interval,
      List<ResponseHeader> extraHeaders,
      boolean paced,
      Compression compression,
      String contentType,
      long contentLength,
      long keepAliveNanos) {
    long start = System.nanoTime();
    if (h2 != null) {
      startH2Stream(
          h2RequestStreams.remove(r),
          id,
          source,
          think,
          interval,
          extraHeaders,
          paced,
          compression,
          r.headers().get("Accept-Encoding"),
          contentType,
          contentLength,
          keepAliveNanos,
          start);
      return;
    }
    boolean keepAlive = (chunked || contentLength >= 0) && r.keepAlive();
    // as a framework's compression middleware: only for a request that accepts the coding, and Vary
    // either way
    ContentCoding coding = compression.coding();
    boolean compress =
        coding != null
            && ContentCoding.accepted(r.headers().get("Accept-Encoding")).contains(coding);
    StringBuilder head =
        new StringBuilder(256)
            .append("HTTP/1.1 200 OK\r\n")
            .append("Content-Type: ")
            .append(contentType)
            .append("\r\n")
            .append("Cache-Control: ")
            .append(compression.cacheControl().header)
            .append("\r\n")
            .append("X-Flushlab-Stream: ")
            .append(id)
            .append("\r\n");
    if (coding != null) head.append("Vary: Accept-Encoding\r\n");
    if (compress) head.append("Content-Encoding: ").append(coding.text()).append("\r\n");
    head.append(
        chunked
            ? "Transfer-Encoding: chunked\r\n"
            : contentLength >= 0 ? "Content-Length: " + contentLength + "\r\n" : "");
    head.append(keepAlive ? "" : "Connection: close\r\n");
    for (ResponseHeader h : extraHeaders)
      head.append(h.name()).append(": ").append(h.value()).append("\r\n");
    head.append("\r\n");
    byte[] preamble = source.preamble();
    if (preamble.length > 0) {
      // sent at once, as a server announces the response before it generates: one write with the
      // head
      if (chunked) head.append(Integer.toHexString(preamble.length)).append("\r\n");
      head.append(
          new String(
              preamble, StandardCharsets.ISO_8859_1)); // bytes kept as they are (UTF-8 inside)
      if (chunked) head.append("\r\n");
    }
    PacingAudit audit = audits.start(id, source.frames(), paced, channel.eventLoop());
    channel.writeAndFlush(
        Unpooled.wrappedBuffer(head.toString().getBytes(StandardCharsets.ISO_8859_1)));
    StreamCompressor compressor =
        compress ? new StreamCompressor(coding, compression.flush()) : null;
    stream =
        new PacedStream(
            channel,
            source,
            audit,
            chunked,
            compressor,
            start,
            think,
            interval,
            complete -> {
              stream = null;
              if (!complete || !keepAlive) {
                closing = true;
                channel
                    .writeAndFlush(Unpooled.EMPTY_BUFFER)
                    .addListener(ChannelFutureListener.CLOSE);
              } else {
                nextRequest();
              }
            });
    stream.keepAlive(keepAliveNanos);
    stream.start();
  }

  /**
   * The same over HTTP/2: a HEADERS frame, the preamble as DATA, then the paced DATA frames; the
   * connection stays.
   */
  private void startH2Stream(
      int streamId,
      long id,
      FrameSource source,
      long think,
      long interval,
      List<ResponseHeader> extraHeaders,
      boolean paced,
      Compression compression,
      String acceptEncoding,
      String contentType,
      long contentLength,
      long keepAliveNanos,
      long start) {
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    headers.add(Map.entry("content-type", contentType));
    if (contentLength >= 0) headers.add(Map.entry("content-length", Long.toString(contentLength)));
    headers.add(Map.entry("cache-control", compression.cacheControl().header));
    headers.add(Map.entry("x-flushlab-stream", Long.toString(id)));
    // compressed as over HTTP/1.1: for a request that accepts the coding, Vary either way
    ContentCoding coding = compression.coding();
    boolean compress = coding != null && ContentCoding.accepted(acceptEncoding).contains(coding);
    if (coding != null) headers.add(Map.entry("vary", "Accept-Encoding"));
    if (compress) headers.add(Map.entry("content-encoding", coding.text()));
    for (ResponseHeader h : extraHeaders) headers.add(Map.entry(h.name(), h.value()));
    ByteBuf head = h2.head(streamId, 200, headers, false);
    byte[] preamble = source.preamble();
    if (preamble.length > 0) {
      ByteBuf both =
          Unpooled.buffer(
              head.readableBytes() + preamble.length + H2ServerSession.framing(preamble.length));
      both.writeBytes(head);
      head.release();
      h2.data(
          both,
          streamId,
          preamble,
          0,
          preamble.length,
          false); // sent at once with the head, as on HTTP/1.1
      head = both;
    }
    PacingAudit audit = audits.start(id, source.frames(), paced, channel.eventLoop());
    channel.writeAndFlush(head);
    StreamCompressor compressor =
        compress ? new StreamCompressor(coding, compression.flush()) : null;
    PacedStream p =
        new PacedStream(
            channel,
            source,
            audit,
            false,
            compressor,
            h2,
            streamId,
            start,
            think,
            interval,
            complete -> h2Streams.remove(streamId));
    h2Streams.put(streamId, p);
    p.keepAlive(keepAliveNanos);
    p.start();
  }

  /** A non-streaming completion: answers once the simulated generation time has passed. */
  private void completeLater(HttpRequestParser.Request request, ChatRequestSpec spec) {
    long wait = spec.thinkNanos() + spec.delayNanos() * (long) (spec.tokens() - 1);
    // keyed by its HTTP/2 stream (0 on HTTP/1.1, one at a time): cancelled, with the request it
    // holds,
    // when that stream is reset or the connection closes, not kept until its delay ends
    Integer key = h2 != null ? h2RequestStreams.remove(request) : Integer.valueOf(0);
    if (key == null) return;
    HttpRequestParser.Request r = request.withoutBody(); // what waits out the delay keeps no body
    if (h2 != null) h2RequestStreams.put(r, key);
    completions.put(
        key,
        channel
            .eventLoop()
            .schedule(
                () -> {
                  completions.remove(key);
                  StringBuilder text = new StringBuilder();
                  for (int i = 0; i < spec.tokens(); i++)
                    text.append(ChatFrameSource.word(i)).append(' ');
                  ObjectNode root =
                      Json.MAPPER
                          .createObjectNode()
                          .put("id", "chatcmpl-flushlab-" + streamIds.incrementAndGet())
                          .put("object", "chat.completion")
                          .put("created", System.currentTimeMillis() / 1000)
                          .put("model", spec.model());
                  ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
                  choice
                      .putObject("message")
                      .put("role", "assistant")
                      .put("content", text.toString());
                  choice.putNull("logprobs");
                  choice.put("finish_reason", spec.finishReason());
                  root.put("system_fingerprint", ChatFrameSource.SYSTEM_FINGERPRINT);
                  root.putObject("usage")
                      .put("prompt_tokens", spec.promptTokens())
                      .put("completion_tokens", spec.tokens())
                      .put("total_tokens", spec.promptTokens() + spec.tokens());
                  respond(r, 200, "application/json", root.toString());
                },
                wait,
                TimeUnit.NANOSECONDS));
  }

  private void respond(HttpRequestParser.Request r, int status, String type, String body) {
    if (h2 != null) {
      Integer streamId = h2RequestStreams.remove(r);
      if (streamId != null)
        channel.writeAndFlush(
            h2.simple(streamId, status, type, body.getBytes(StandardCharsets.UTF_8)));
      return;
    }
    boolean keepAlive = r.keepAlive();
    writeSimple(status, type, body, keepAlive);
    if (keepAlive) {
      nextRequest();
    } else {
      closing = true;
    }
  }

  private void respondAndClose(int status, String reason) {
    if (closing) return;
    closing = true;
    if (h2 != null) {
      channel
          .writeAndFlush(Unpooled.wrappedBuffer(H2.goAway(0, H2.NO_ERROR)))
          .addListener(ChannelFutureListener.CLOSE);
      return;
    }
    if (busy) {
      channel.close(); // an answer cannot go in the middle of a response: the connection just ends
      return;
    }
    writeSimple(status, "text/plain", reason + "\n", false);
  }

  private void writeSimple(int status, String type, String body, boolean keepAlive) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 "
            + status
            + " "
            + reason(status)
            + "\r\n"
            + "Content-Type: "
            + type
            + "\r\n"
            + "Content-Length: "
            + bytes.length
            + "\r\n"
            + (keepAlive ? "" : "Connection: close\r\n")
            + "\r\n";
    byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
    var f = channel.writeAndFlush(Unpooled.wrappedBuffer(h, bytes));
    if (keepAlive) return;
    if (status == 413) f.addListener(done -> lingerThenClose());
    else f.addListener(ChannelFutureListener.CLOSE);
  }

  /**
   * How long a client has to take a GOAWAY (and what was queued before it) before its connection is
   * cut off.
   */
  static final long GOAWAY_GRACE_MS = 1_000;

  /**
   * How long a connection refused mid-body keeps reading (and dropping) what its client still
   * sends.
   */
  static final long LINGER_MS = 2_000;

  /**
   * After a refusal the client may still be sending (a body over the limit): closing now, with its
   * bytes unread, makes the kernel answer them with a reset that can destroy the response before
   * the client reads it. So: send FIN, keep reading and dropping its bytes (onBytes drops
   * everything once closing), and close when it closes or after {@link #LINGER_MS}.
   */
  private void lingerThenClose() {
    if (!(channel instanceof DuplexChannel d) || !channel.isActive()) {
      channel.close();
      return;
    }
    socket.resume();
    d.shutdownOutput()
        .addListener(
            x ->
                channel
                    .eventLoop()
                    .schedule(
                        () -> {
                          channel.close();
                        },
                        LINGER_MS,
                        TimeUnit.MILLISECONDS));
  }

  private void nextRequest() {
    busy = false;
    HttpRequestParser.Request next = queued.poll();
    if (next != null) {
      queuedRequestBytes -= next.body().length;
      holdRequestBytes();
      onRequest(next);
    }
    startRequestTimerIfNeeded();
  }

  private static String toJson(Object o) {
    return Json.write(o);
  }

  private static String reason(int status) {
    switch (status) {
      case 200:
        return "OK";
      case 400:
        return "Bad Request";
      case 401:
        return "Unauthorized";
      case 404:
        return "Not Found";
      case 405:
        return "Method Not Allowed";
      case 409:
        return "Conflict";
      case 408:
        return "Request Timeout";
      case 413:
        return "Payload Too Large";
      case 503:
        return "Service Unavailable";
      default:
        return "Status";
    }
  }
}
