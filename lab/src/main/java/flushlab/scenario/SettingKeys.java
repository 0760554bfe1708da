package flushlab.scenario;

import static flushlab.scenario.Key.Section.CLIENT;
import static flushlab.scenario.Key.Section.EMITTER;

import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.HttpVersion;
import flushlab.client.RequestPlan;
import flushlab.coding.FlushPolicy;
import flushlab.core.FrameCodec;
import flushlab.core.Named;
import flushlab.core.Units;
import flushlab.scenario.Key.Type;
import flushlab.stream.CacheControl;
import flushlab.stream.Endpoint;
import flushlab.stream.RequestMethod;
import flushlab.stream.StreamSpec;
import flushlab.stream.Transfer;
import flushlab.stream.XAccelBuffering;

/**
 * The emitter and client settings a cell carries, each of which a sweep may vary (the {@code
 * emitter:} and {@code client:} sections). Every key is listed in {@link Keys#ALL}, which gives the
 * reference its order.
 */
public final class SettingKeys {
  private SettingKeys() {}

  // ---- emitter and client settings (each may be swept)
  public static final Key ENDPOINT =
      Key.of(
              "endpoint",
              EMITTER,
              Type.CHOICE,
              StreamSpec.DEFAULT.endpoint().text(),
              "sse: GET /sse plain frames; chat: POST /v1/chat/completions OpenAI chunks; responses: POST /v1/responses OpenAI "
                  + "Responses API events")
          .choices(Endpoint.settingNames());
  public static final Key FRAMES =
      Key.of(
              "frames",
              EMITTER,
              Type.INT,
              Integer.toString(StreamSpec.DEFAULT_FRAMES),
              "frames (tokens) per response")
          .range(1, StreamSpec.MAX_FRAMES);
  public static final Key FRAME_SIZE =
      Key.of(
              "frame_size",
              EMITTER,
              Type.SIZE,
              StreamSpec.DEFAULT_FRAME_BYTES + "B",
              "bytes of each SSE event on the wire (sse endpoint)")
          .range(FrameCodec.MIN_FRAME_BYTES, StreamSpec.MAX_FRAME_BYTES);
  public static final Key INTERVAL =
      Key.of(
              "interval",
              EMITTER,
              Type.DURATION,
              Units.formatDuration(StreamSpec.DEFAULT_INTERVAL_NANOS),
              "time between frames; 0ms = as fast as the socket takes them")
          .range(0, StreamSpec.MAX_INTERVAL_NANOS);
  public static final Key THINK =
      Key.of(
              "think",
              EMITTER,
              Type.DURATION,
              Units.formatDuration(StreamSpec.DEFAULT.thinkNanos()),
              "delay before the first frame")
          .range(0, StreamSpec.MAX_THINK_NANOS);
  public static final Key TRANSFER =
      Key.of(
              "transfer",
              EMITTER,
              Type.CHOICE,
              StreamSpec.DEFAULT.transfer().text(),
              "body framing (sse endpoint): chunked (close-delimited for an HTTP/1.0 request), close, chunked-always (even for HTTP/1.0), "
                  + "or length (a finite body announced by Content-Length, as a response nobody meant as a stream)")
          .choices(Transfer.settingNames());
  public static final Key TOTAL =
      Key.of(
              "total",
              EMITTER,
              Type.SIZE,
              null,
              "bulk mode: total body bytes, in frames of frame_size (replaces frames)")
          .range(FrameCodec.MIN_FRAME_BYTES, StreamSpec.MAX_TOTAL_BYTES);
  public static final Key METHOD =
      Key.of(
              "method",
              EMITTER,
              Type.CHOICE,
              "get",
              "how the client asks for the sse endpoint: get, or post (with a small JSON body, as a fetch() that posts a prompt); some "
                  + "proxies stream one and buffer the other; sweepable (the chat endpoints are POST, as OpenAI's)")
          .choices(RequestMethod.settingNames());
  public static final Key SSE_KEEPALIVE =
      Key.of(
              "sse_keepalive",
              EMITTER,
              Type.DURATION,
              "0ms",
              "an SSE comment (': keep-alive') once nothing was written for this long, as servers send through a long think to keep "
                  + "idle timeouts from cutting the stream; 0ms = none; not with transfer: length; sweepable")
          .range(0, StreamSpec.MAX_THINK_NANOS);
  public static final Key CONTENT_TYPE =
      Key.of(
          "content_type",
          EMITTER,
          Type.TEXT,
          StreamSpec.DEFAULT_CONTENT_TYPE,
          "the response's Content-Type (sse endpoint), with or without parameters: text/event-stream; charset=utf-8, "
              + "application/x-ndjson, text/plain...; many proxies stream or buffer on it alone; application/x-ndjson frames are JSON lines "
              + "({\"data\":\"...\"}, one per frame, up to 16 KiB), every other label carries the lab's SSE events, which the client "
              + "reads whatever the label; sweepable");
  public static final Key X_ACCEL_BUFFERING =
      Key.of(
              "x_accel_buffering",
              EMITTER,
              Type.CHOICE,
              StreamSpec.DEFAULT.xAccelBuffering().text(),
              "send X-Accel-Buffering: no|yes from the emitter, or not at all; sweepable (quote \"no\" in YAML)")
          .choices(XAccelBuffering.settingNames());
  public static final Key ENCODING =
      Key.of(
              "encoding",
              EMITTER,
              Type.CHOICE,
              "identity",
              "compress the stream as an origin's compression middleware does, for a request that accepts this coding (others get it as "
                  + "it is, with Vary: Accept-Encoding): identity (never), gzip, deflate, br or zstd; sweepable")
          .choices(StreamSpec.ENCODINGS);
  public static final Key FLUSH =
      Key.of(
          "flush",
          EMITTER,
          Type.FLUSH_POLICY,
          FlushPolicy.EACH.text(),
          "when the emitter's compressor lets output go: each (flushed per event, a well-behaved server), none (never: the encoder's "
              + "own blocks and the end, as Express's compression without res.flush()), bytes:N (sent once N compressed bytes wait), "
              + "ms:T (flushed T after the first unflushed event), input:N (flushed once N uncompressed bytes were written since the "
              + "last flush), next (flushed as the next event is written: each event one late) or end (the whole body at its end, the "
              + "head at once); with encoding; sweepable");
  public static final Key CACHE_CONTROL =
      Key.of(
              "cache_control",
              EMITTER,
              Type.CHOICE,
              CacheControl.NO_CACHE.text(),
              "the Cache-Control the emitter answers with: no-cache, or no-transform (\"no-cache, no-transform\": asks intermediaries not "
                  + "to alter the body, the usual escape from a proxy's compression); sweepable")
          .choices(CacheControl.settingNames());
  public static final Key HEADERS =
      Key.of(
          "headers",
          EMITTER,
          Type.HEADERS,
          null,
          "extra response headers, e.g. {X-Accel-Buffering: \"no\"} (sse endpoint); not sweepable");
  public static final Key SLOW_READER =
      Key.of(
              "slow_reader",
              CLIENT,
              Type.DURATION,
              Units.formatDuration(ClientOptions.DEFAULT.slowReaderPauseNanos()),
              "pause after each read (a slow client); 0ms reads at once")
          .range(0, 10e9);
  public static final Key CONCURRENCY =
      Key.of(
              "concurrency",
              CLIENT,
              Type.INT,
              Integer.toString(ClientOptions.DEFAULT.concurrency()),
              "requests in flight at once")
          .range(1, ClientOptions.MAX_CONCURRENCY);
  public static final Key REQUESTS =
      Key.of(
              "requests",
              CLIENT,
              Type.INT,
              Integer.toString(ClientOptions.DEFAULT.requests()),
              "requests per run")
          .range(1, ClientOptions.MAX_REQUESTS);
  public static final Key KEEP_ALIVE =
      Key.of(
          "keep_alive",
          CLIENT,
          Type.BOOL,
          Boolean.toString(ClientOptions.DEFAULT.keepAlive()),
          "reuse client connections between requests");
  public static final Key TIMEOUT =
      Key.of(
              "timeout",
              CLIENT,
              Type.DURATION,
              Units.formatDuration(ClientOptions.DEFAULT.timeoutNanos()),
              "per-request timeout")
          .range(1e6, 3600e9);
  public static final Key MODEL =
      Key.of(
              "model",
              CLIENT,
              Type.TEXT,
              RequestPlan.DEFAULT_MODEL,
              "the model chat and responses requests name (a gateway routes by it)")
          .range(1, 256);
  public static final Key PROFILE =
      Key.of(
              "profile",
              CLIENT,
              Type.CHOICE,
              ClientProfile.DEFAULT.text(),
              "which client the requests look like, its headers as captured from it: `bare` (the lab's own, no Accept-Encoding), `curl` "
                  + "(7.88.1), `browser` (Chromium 156's EventSource: accepts gzip, deflate, br, zstd), `openai-python` (3.22.1) or "
                  + "`openai-node` (6.49.0), both accepting gzip, deflate; the client decodes whatever coding it accepted (gzip, deflate, br, zstd); sweepable, to "
                  + "read one target as several clients side by side")
          .choices(Named.texts(ClientProfile.class));
  public static final Key HTTP =
      Key.of(
              "http",
              CLIENT,
              Type.CHOICE,
              ClientOptions.DEFAULT.http().text(),
              "which HTTP the client speaks: auto (as its profile would: to a target that speaks TLS a browser and curl offer h2 and "
                  + "http/1.1 by ALPN, the others speak HTTP/1.1), 1.1, h2 (HTTP/2 over TLS by ALPN only), h2c (HTTP/2 over plain TCP by prior "
                  + "knowledge) or h2c-upgrade (Upgrade: h2c); quote \"1.1\" in YAML; sweepable, to read one target over HTTP/1.1 and "
                  + "HTTP/2 side by side")
          .choices(Named.texts(HttpVersion.class));
  public static final Key STREAMS_PER_CONNECTION =
      Key.of(
              "streams_per_connection",
              CLIENT,
              Type.INT,
              Integer.toString(ClientOptions.DEFAULT.streamsPerConnection()),
              "HTTP/2: requests in flight on one connection at once (concurrency counts them all); where flow-control windows run out")
          .range(1, ClientOptions.MAX_STREAMS_PER_CONNECTION);
  public static final Key H2_WINDOW =
      Key.of(
              "h2_window",
              CLIENT,
              Type.SIZE,
              "0B",
              "HTTP/2: the flow-control window the client advertises, for each stream and for the connection; 0B = what its profile's "
                  + "client advertises (browser: Chromium's 6 MiB per stream and 15 MiB per connection; curl: 32 MiB; the others: the "
                  + "protocol's 65,535 B); a small one reproduces window exhaustion")
          .range(0, ClientOptions.MAX_H2_WINDOW);
  public static final Key REQUEST_HEADERS =
      Key.of(
          "headers",
          CLIENT,
          Type.HEADERS,
          null,
          "extra request headers, e.g. {Authorization: \"Bearer ${OPENAI_API_KEY}\"}: `${VAR}` is read from the environment when the "
              + "scenario loads (a variable not set is an error); values are never written to results or logs, names are; not sweepable");

  /** Not a setting of a cell: the agents that run the client load. */
  public static final Key CLIENT_ON =
      Key.of(
              "on",
              CLIENT,
              Type.STRUCTURED,
              null,
              "with a `cluster:` section: the agents that run the client load, e.g. `[b, c]`; each cell's `requests` and `concurrency` "
                  + "are split over them as evenly as they go; not sweepable")
          .shape("non-empty list of agent names")
          .shownDefault("required there");

  /** Not a setting of a cell: where the emitter listens for the whole scenario. */
  public static final Key LISTEN =
      Key.of(
              "listen",
              EMITTER,
              Type.HOST_PORT,
              "127.0.0.1:0",
              "where the emitter listens (a fixed port lets an external gateway forward to it); not sweepable")
          .range(0, 65535);

  /**
   * Not a setting of a cell: the agent that runs the emitter when the scenario spans a lab's
   * agents.
   */
  public static final Key EMITTER_ON =
      Key.of(
              "on",
              EMITTER,
              Type.TEXT,
              null,
              "with a `cluster:` section: the agent that runs the emitter (on its cluster address); not sweepable")
          .shownDefault("required there");
}
