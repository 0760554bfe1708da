package flushlab.scenario;

import static flushlab.scenario.Key.Section.ADAPTIVE;
import static flushlab.scenario.Key.Section.CERTIFY;
import static flushlab.scenario.Key.Section.CLIENT;
import static flushlab.scenario.Key.Section.CLUSTER;
import static flushlab.scenario.Key.Section.EMITTER;
import static flushlab.scenario.Key.Section.GUARDS;
import static flushlab.scenario.Key.Section.KEEPALIVE;
import static flushlab.scenario.Key.Section.SERVER;
import static flushlab.scenario.Key.Section.TARGET;
import static flushlab.scenario.Key.Section.TOP;
import static flushlab.scenario.Key.Section.UPLOAD;

import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.HttpVersion;
import flushlab.client.RequestPlan;
import flushlab.coding.FlushPolicy;
import flushlab.core.FrameCodec;
import flushlab.core.Named;
import flushlab.core.Units;
import flushlab.proxy.ProxyKind;
import flushlab.scenario.Key.Section;
import flushlab.scenario.Key.Type;
import flushlab.stream.CacheControl;
import flushlab.stream.Endpoint;
import flushlab.stream.RequestMethod;
import flushlab.stream.StreamSpec;
import flushlab.stream.Transfer;
import flushlab.stream.XAccelBuffering;
import flushlab.targets.TargetKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every key a scenario may write, once: its section, type, range, default and meaning. The loader
 * takes the keys allowed in each place, their checks and their defaults from here; the reference
 * tables in scenarios/README.md are generated from here (and a test checks they are current); the
 * CLI flags that mirror settings take their ranges and descriptions from here. Ranges that are the
 * emitter's or the client's own limits are those limits, not copies.
 */
public final class Keys {
  private Keys() {}

  // ---- top level
  public static final Key NAME =
      Key.of("name", TOP, Type.NAME, null, "names the results folder `results/<timestamp>-<name>/`")
          .range(1, 64)
          .shownDefault("required");
  public static final Key DESCRIPTION =
      Key.of("description", TOP, Type.TEXT, "", "printed at the top of `summary.md`")
          .shownDefault("empty");
  public static final Key EMITTER_SECTION =
      Key.of("emitter", TOP, Type.STRUCTURED, null, "the stream the emitter sends")
          .shape("map of emitter settings (below)")
          .shownDefault("all defaults");
  public static final Key CLIENT_SECTION =
      Key.of("client", TOP, Type.STRUCTURED, null, "how the metered client reads it")
          .shape("map of client settings (below)")
          .shownDefault("all defaults");
  public static final Key TARGETS =
      Key.of("targets", TOP, Type.STRUCTURED, null, "what is measured, in this order in every cell")
          .shape("non-empty list of targets (below)")
          .shownDefault("required");
  public static final Key SWEEP =
      Key.of(
              "sweep",
              TOP,
              Type.STRUCTURED,
              null,
              "the cells are the cross product of these lists (at most "
                  + ScenarioLoader.MAX_CELLS
                  + " cells, counted before any is built)")
          .shape("map of setting -> list of values")
          .shownDefault("none");
  public static final Key RUNS =
      Key.of(
              "runs",
              TOP,
              Type.INT,
              "3",
              "runs per cell and target; one attempt each, never retried")
          .range(1, 1000);
  public static final Key GUARDS_SECTION =
      Key.of("guards", TOP, Type.STRUCTURED, null, "the honesty guards, declared before the run")
          .shape("map (below)")
          .shownDefault("defaults below");
  public static final Key FLUSH_TRIGGER_MAP =
      Key.of(
              "flush_trigger_map",
              TOP,
              Type.BOOL,
              null,
              "infer each target's flush trigger from the sweep")
          .shownDefault("true when there is more than one cell");
  public static final Key EXPECT =
      Key.of(
              "expect",
              TOP,
              Type.STRUCTURED,
              null,
              "what `flushlab run` requires a target's flush-trigger answer to be: a kind (`none`, `byte-threshold`, ...) or a model as "
                  + "`map --shape` takes it (`byte-threshold=4KiB`, its numbers within `expect_tolerance`); an answer that differs makes the "
                  + "run exit 1 and prints the difference; needs the flush-trigger map")
          .shape("map of target name -> kind or model")
          .shownDefault("none");
  public static final Key EXPECT_TOLERANCE =
      Key.of(
              "expect_tolerance",
              TOP,
              Type.FRACTION,
              "0.1",
              "how far a number of an answer's model may be from the one `expect` gives")
          .range(0, 1)
          .shownDefault("`10%`");
  public static final Key PATH =
      Key.of(
              "path",
              TOP,
              Type.CHOICE,
              "loopback",
              "the network between the client and the servers the lab starts: `loopback` (this host's, MTU 65536), or `veth` (the "
                  + "servers in a network namespace of the lab's own, across a veth link of `mtu`; needs Linux, root and iproute2); "
                  + "the direct path, certification and every target without its own `path` use it")
          .choices("loopback", "veth");
  public static final Key MTU =
      Key.of(
              "mtu",
              TOP,
              Type.INT,
              "1500",
              "the veth link's MTU (1500: Ethernet, 1448 bytes per TCP "
                  + "segment); loopback's is fixed at 65536")
          .range(576, 65535);
  public static final Key PROBE =
      Key.of(
              "probe",
              TOP,
              Type.CHOICE,
              null,
              "makes this a TCP-layer probe scenario instead of a stream one: `upload` (a request burst timed to the response head, "
                  + "over a sweep of body sizes, bisecting where the time jumps) or `keepalive` (small requests on one keep-alive "
                  + "connection, TCP_NODELAY on and off); it takes `servers` and the section of its name, not `targets`")
          .shownDefault("(none: a stream scenario)")
          .choices("upload", "keepalive");
  public static final Key UPLOAD_SECTION =
      Key.of("upload", TOP, Type.STRUCTURED, null, "the upload probe's settings (below)")
          .shape("map (below)")
          .shownDefault("below");
  public static final Key KEEPALIVE_SECTION =
      Key.of("keepalive", TOP, Type.STRUCTURED, null, "the keep-alive probe's settings (below)")
          .shape("map (below)")
          .shownDefault("below");
  public static final Key SERVERS =
      Key.of(
              "servers",
              TOP,
              Type.STRUCTURED,
              null,
              "the lab's own upload servers a probe scenario measures, in order, each with its own settings (below)")
          .shape("non-empty list of servers");
  public static final Key ADAPTIVE_SECTION =
      Key.of(
              "adaptive",
              TOP,
              Type.STRUCTURED,
              null,
              "bisect one setting of one target to locate a threshold")
          .shape("map (below)")
          .shownDefault("none");

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

  // ---- targets
  public static final Key TARGET_NAME =
      Key.of("name", TARGET, Type.ROW_NAME, null, "unique; the row name in every table")
          .range(1, 48)
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.PROCESS, TargetKind.EXTERNAL);
  public static final Key KIND =
      Key.of(
              "kind",
              TARGET,
              Type.CHOICE,
              null,
              "`direct` (client to emitter), `relay` (a built-in relay the lab starts in front of its emitter), `process` (a real proxy "
                  + "binary the lab starts from a config template), `external` (a server the lab did not start)")
          .choices(Named.texts(TargetKind.class))
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.PROCESS, TargetKind.EXTERNAL);
  public static final Key SHAPERS =
      Key.of(
              "shapers",
              TARGET,
              Type.STRUCTURED,
              null,
              "shaper specs applied in order, e.g. `[byte-threshold=2KiB]`, `[\"threshold-or-timer,bytes=2KiB,after=200ms\"]`; see the "
                  + "shaper reference in docs/SHAPERS.md")
          .shape("non-empty list of shaper specs")
          .forKinds(TargetKind.RELAY);
  public static final Key POOL_UPSTREAM =
      Key.of(
              "pool_upstream",
              TARGET,
              Type.BOOL,
              "false",
              "`true`: keep upstream connections alive and reuse them across client connections; `false`: a fresh upstream connection "
                  + "per client connection")
          .forKinds(TargetKind.RELAY);
  public static final Key PROXY =
      Key.of(
              "proxy",
              TARGET,
              Type.CHOICE,
              null,
              "the proxy to start (Debian packages of those names); a trafficserver template is one file "
                  + "cut into sections, each opened by `# file: NAME` (records.config and remap.config at least), written into its private config folder")
          .choices(Arrays.stream(ProxyKind.values()).map(ProxyKind::text).toArray(String[]::new))
          .forKinds(TargetKind.PROCESS);
  public static final Key CONFIG =
      Key.of(
              "config",
              TARGET,
              Type.STRUCTURED,
              null,
              "a config template, relative to the scenario file and inside its folder (symbolic links resolved; at most 256 KiB; the "
                  + "shipped ones are in `scenarios/proxies/`); the lab fills in `{{listen_host}}` (127.0.0.1, or the veth path's server address), `{{listen_port}}`, "
                  + "`{{upstream_host}}`, `{{upstream_port}}` "
                  + "and `{{workdir}}` (a private folder for pid, temp and state files, deleted when the proxy stops); a template that "
                  + "terminates TLS names `{{tls_cert}}` and `{{tls_key}}` (PEM files), or `{{tls_pem}}` (both in one file, for HAProxy): the "
                  + "lab writes its self-signed certificate there and the client pins it")
          .shape("a file path")
          .forKinds(TargetKind.PROCESS);
  public static final Key TARGET_PATH =
      Key.of(
              "path",
              TARGET,
              Type.CHOICE,
              null,
              "this target's network path, when not the scenario's: list a target twice, once per path, to compare them side by side")
          .shownDefault("the scenario's `path`")
          .choices("loopback", "veth")
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.PROCESS);
  public static final Key TARGET_MTU =
      Key.of("mtu", TARGET, Type.INT, null, "this target's veth MTU, when not the scenario's")
          .shownDefault("the scenario's `mtu`")
          .range(576, 65535)
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.PROCESS);
  public static final Key ADDRESS =
      Key.of(
              "address",
              TARGET,
              Type.HOST_PORT,
              null,
              "the server to measure; it must forward to the lab's emitter for the pacing guard to audit it")
          .range(1, 65535)
          .forKinds(TargetKind.EXTERNAL);
  public static final Key TARGET_ON =
      Key.of(
              "on",
              TARGET,
              Type.TEXT,
              null,
              "with a `cluster:` section: the agent that runs this relay or proxy (required there; its upstream is the emitter on its "
                  + "agent; a proxy's template is sent to the agent, which needs the proxy installed)")
          .forKinds(TargetKind.RELAY, TargetKind.PROCESS);
  public static final Key EXTERNAL =
      Key.of(
              "external",
              TARGET,
              Type.BOOL,
              null,
              "must be `true`: the lab refuses to measure a server it did not start unless told so")
          .forKinds(TargetKind.EXTERNAL);
  public static final Key REASON =
      Key.of(
              "reason",
              TARGET,
              Type.TEXT,
              null,
              "required with `external: true`: why measuring a server the lab did not start is right; recorded in `results.json`")
          .forKinds(TargetKind.EXTERNAL);

  public static final Key TLS =
      Key.of(
              "tls",
              TARGET,
              Type.BOOL,
              "false",
              "`true`: the client speaks TLS to the target: for `direct`, the emitter's TLS listener; for `relay`, the relay terminates "
                  + "TLS (both with the lab's self-signed certificate, which the client pins; loopback only); for `external`, https with "
                  + "the certificate checked against the system's CAs and the host name (see `ca_file`, `insecure`). A `process` target "
                  + "speaks TLS when its template names `{{tls_cert}}`, `{{tls_key}}` or `{{tls_pem}}`")
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.EXTERNAL);
  public static final Key CA_FILE =
      Key.of(
              "ca_file",
              TARGET,
              Type.TEXT,
              null,
              "with `tls: true`: check the server's certificate against the CAs in this PEM file (relative to the scenario file) instead of "
                  + "the system's")
          .forKinds(TargetKind.EXTERNAL);
  public static final Key INSECURE =
      Key.of(
              "insecure",
              TARGET,
              Type.BOOL,
              "false",
              "with `tls: true`: do not check the server's certificate at all (a warning is printed and recorded)")
          .forKinds(TargetKind.EXTERNAL);

  // ---- guards
  public static final Key PACING_TOLERANCE =
      Key.of(
              "pacing_tolerance",
              GUARDS,
              Type.DURATION,
              "5ms",
              "a run in which the emitter wrote any frame later than this after its deadline (its own audit) is excluded and counted, "
                  + "never blamed on a target")
          .range(10_000, 10e9);
  public static final Key CERTIFY_SECTION =
      Key.of(
              "certify",
              GUARDS,
              Type.STRUCTURED,
              null,
              "the direct-path certification that must pass before any target row counts")
          .shape("map (below)")
          .shownDefault("below");
  public static final Key CERTIFY_RUNS =
      Key.of("runs", CERTIFY, Type.INT, "3", "direct-path runs that certify the host")
          .range(1, 100);
  public static final Key CERTIFY_CEILING =
      Key.of(
              "max_frames_per_read",
              CERTIFY,
              Type.DECIMAL,
              "1.10",
              "the direct path must read at or under this; above it the scenario stops (exit 3) and publishes no target row")
          .range(1.0, 100);
  public static final Key CERTIFY_FRAMES =
      Key.of(
              "frames",
              CERTIFY,
              Type.INT,
              Integer.toString(StreamSpec.DEFAULT_FRAMES),
              "frames of the certification stream")
          .range(1, StreamSpec.MAX_FRAMES);
  public static final Key CERTIFY_FRAME_SIZE =
      Key.of(
              "frame_size",
              CERTIFY,
              Type.SIZE,
              StreamSpec.DEFAULT_FRAME_BYTES + "B",
              "frame size of the certification stream")
          .range(FrameCodec.MIN_FRAME_BYTES, StreamSpec.MAX_FRAME_BYTES);
  public static final Key CERTIFY_INTERVAL =
      Key.of(
              "interval",
              CERTIFY,
              Type.DURATION,
              Units.formatDuration(StreamSpec.DEFAULT_INTERVAL_NANOS),
              "interval of the certification stream")
          .range(0, StreamSpec.MAX_INTERVAL_NANOS);

  // ---- adaptive bisection
  public static final Key ADAPTIVE_TARGET =
      Key.of("target", ADAPTIVE, Type.STRUCTURED, null, "the target to bisect")
          .shape("a target name")
          .shownDefault("required");
  public static final Key PARAMETER =
      Key.of(
              "parameter",
              ADAPTIVE,
              Type.CHOICE,
              null,
              "the setting to bisect (all else as in the first cell)")
          .choices("frame_size", "interval")
          .shownDefault("required");
  public static final Key LOW =
      Key.of(
              "low",
              ADAPTIVE,
              Type.STRUCTURED,
              null,
              "a value at which the target coalesces (or streams)")
          .shape("a value of that setting")
          .shownDefault("required");
  public static final Key HIGH =
      Key.of("high", ADAPTIVE, Type.STRUCTURED, null, "a value at which it does the opposite")
          .shape("a value of that setting")
          .shownDefault("required");
  public static final Key TOLERANCE =
      Key.of("tolerance", ADAPTIVE, Type.FRACTION, "0.1", "stop when low and high are this close")
          .range(0, 1)
          .shownDefault("`10%`");
  public static final Key COALESCING_ABOVE =
      Key.of(
              "coalescing_above",
              ADAPTIVE,
              Type.DECIMAL,
              "1.5",
              "frames per read above this counts as coalescing")
          .range(1.01, 1000);
  public static final Key MAX_CELLS =
      Key.of("max_cells", ADAPTIVE, Type.INT, "12", "most cells the bisection may use")
          .range(2, 64);

  // ---- probe scenarios
  public static final Key SIZES =
      Key.of(
              "sizes",
              UPLOAD,
              Type.STRUCTURED,
              "[16KiB, 32KiB, 64KiB, 128KiB, 256KiB, 512KiB, 1MiB]",
              "body sizes to sweep; the smallest is the baseline a stall is measured against")
          .shape("a list of 2-64 sizes, 1 B..64 MiB");
  public static final Key ATTEMPTS =
      Key.of("attempts", UPLOAD, Type.INT, "3", "fresh connections per size; the median counts")
          .range(1, 50);
  public static final Key STALL_OVER =
      Key.of(
              "stall_over",
              UPLOAD,
              Type.DURATION,
              "20ms",
              "a size stalls when its median time to the response head is over the smallest size's by more than this")
          .range(1e6, 10e9);
  public static final Key BISECT_TOLERANCE =
      Key.of(
              "tolerance",
              UPLOAD,
              Type.FRACTION,
              "0.02",
              "bisect until the sizes either side of the jump are this close")
          .range(0.001, 0.5);
  public static final Key ATTEMPT_TIMEOUT =
      Key.of(
              "timeout",
              UPLOAD,
              Type.DURATION,
              "10s",
              "most one attempt may wait for the response head")
          .range(100e6, 120e9);
  public static final Key KA_REQUESTS =
      Key.of("requests", KEEPALIVE, Type.INT, "128", "request/response pairs on one connection")
          .range(1, 100_000);
  public static final Key KA_BODY =
      Key.of(
              "body",
              KEEPALIVE,
              Type.SIZE,
              "64B",
              "bytes of each request body, sent in a write of " + "its own after the head")
          .range(1, 1 << 20);
  public static final Key KA_CLIENT_NODELAY =
      Key.of(
              "client_nodelay",
              KEEPALIVE,
              Type.CHOICE,
              "both",
              "TCP_NODELAY on the probe's socket: `on`, `off`, or `both` (one connection each)")
          .choices("on", "off", "both");
  public static final Key KA_STALL_OVER =
      Key.of(
              "stall_over",
              KEEPALIVE,
              Type.DURATION,
              "20ms",
              "a request slower than the probe's fastest by more than this is a stall (a delayed ACK costs 40 ms or more)")
          .range(1e6, 10e9);
  public static final Key SERVER_NAME =
      Key.of("name", SERVER, Type.ROW_NAME, null, "unique; the row name in every table")
          .range(1, 48);
  public static final Key SERVER_RCVBUF =
      Key.of(
              "rcvbuf",
              SERVER,
              Type.SIZE,
              null,
              "SO_RCVBUF set on the listener before it listens (accepted sockets inherit it); the kernel doubles it, up to "
                  + "net.core.rmem_max, and the results record what it granted")
          .shownDefault("the kernel's")
          .range(1024, 1 << 30);
  public static final Key SERVER_READ_DELAY =
      Key.of(
              "read_delay",
              SERVER,
              Type.DURATION,
              "0ms",
              "how long the server waits before its first read of a connection, as a busy server does")
          .range(0, 60e9);
  public static final Key SERVER_NODELAY =
      Key.of(
          "nodelay",
          SERVER,
          Type.BOOL,
          "true",
          "TCP_NODELAY on the server's sockets "
              + "(its responses go out in two writes, head then body, so Nagle shows)");
  public static final Key SERVER_PATH =
      Key.of(
              "path",
              SERVER,
              Type.CHOICE,
              null,
              "this server's network path, when not the " + "scenario's")
          .shownDefault("the scenario's `path`")
          .choices("loopback", "veth");
  public static final Key SERVER_MTU =
      Key.of("mtu", SERVER, Type.INT, null, "this server's veth MTU, when not the scenario's")
          .shownDefault("the scenario's `mtu`")
          .range(576, 65535);

  // ---- cluster (a scenario that spans a lab's agents; docs/CLUSTER.md)
  public static final Key CLUSTER_SECTION =
      Key.of(
              "cluster",
              TOP,
              Type.STRUCTURED,
              null,
              "run the scenario on a lab's agents on several hosts: this process coordinates (see docs/CLUSTER.md)")
          .shape("map of cluster keys (below)")
          .shownDefault("none: one host");
  public static final Key CLUSTER_NAME =
      Key.of(
              "name",
              CLUSTER,
              Type.TEXT,
              null,
              "the lab's cluster name, as its agents were started with (`--cluster-name`)")
          .shownDefault("required");
  public static final Key CLUSTER_AT =
      Key.of(
              "at",
              CLUSTER,
              Type.HOST_PORT,
              "127.0.0.1:5900",
              "the coordinator's own cluster address (its handshake port; Hazelcast and the event bus take the next two)")
          .range(1, 65533);
  public static final Key CLUSTER_JOIN =
      Key.of(
              "join",
              CLUSTER,
              Type.STRUCTURED,
              null,
              "agents to join, their `--cluster-host` addresses, e.g. `[10.0.0.1:5800]`")
          .shape("non-empty list of host:port")
          .shownDefault("required");
  public static final Key CLUSTER_SECRET_FILE =
      Key.of(
              "secret_file",
              CLUSTER,
              Type.TEXT,
              null,
              "a file holding the lab's shared secret (at most 4 KiB), relative to the scenario; else the environment variable "
                  + "FLUSHLAB_CLUSTER_SECRET")
          .shownDefault("FLUSHLAB_CLUSTER_SECRET");
  public static final Key CLUSTER_LEASE =
      Key.of(
              "lease",
              CLUSTER,
              Type.DURATION,
              "10s",
              "how long an agent keeps serving the run's emitter and relays without hearing from this coordinator (renewed every "
                  + "third of it): a coordinator killed mid-run leaves no agent serving its run for longer")
          .range(1e9, 60e9);

  /** The top-level keys only a stream scenario takes, and those only a probe scenario takes. */
  public static final List<String> STREAM_ONLY =
      List.of(
          "emitter",
          "client",
          "targets",
          "sweep",
          "runs",
          "guards",
          "flush_trigger_map",
          "expect",
          "expect_tolerance",
          "adaptive",
          "cluster");

  public static final List<String> PROBE_ONLY = List.of("upload", "keepalive", "servers");

  public static final List<Key> ALL =
      List.of(
          NAME,
          DESCRIPTION,
          EMITTER_SECTION,
          CLIENT_SECTION,
          TARGETS,
          SWEEP,
          RUNS,
          GUARDS_SECTION,
          FLUSH_TRIGGER_MAP,
          EXPECT,
          EXPECT_TOLERANCE,
          PATH,
          MTU,
          ADAPTIVE_SECTION,
          PROBE,
          UPLOAD_SECTION,
          KEEPALIVE_SECTION,
          SERVERS,
          CLUSTER_SECTION,
          ENDPOINT,
          FRAMES,
          FRAME_SIZE,
          INTERVAL,
          THINK,
          TRANSFER,
          CONTENT_TYPE,
          SSE_KEEPALIVE,
          METHOD,
          TOTAL,
          X_ACCEL_BUFFERING,
          ENCODING,
          FLUSH,
          CACHE_CONTROL,
          HEADERS,
          LISTEN,
          EMITTER_ON,
          SLOW_READER,
          CONCURRENCY,
          REQUESTS,
          KEEP_ALIVE,
          TIMEOUT,
          MODEL,
          PROFILE,
          HTTP,
          STREAMS_PER_CONNECTION,
          H2_WINDOW,
          REQUEST_HEADERS,
          CLIENT_ON,
          TARGET_NAME,
          KIND,
          SHAPERS,
          POOL_UPSTREAM,
          PROXY,
          CONFIG,
          TARGET_PATH,
          TARGET_MTU,
          TARGET_ON,
          ADDRESS,
          EXTERNAL,
          REASON,
          TLS,
          CA_FILE,
          INSECURE,
          PACING_TOLERANCE,
          CERTIFY_SECTION,
          CERTIFY_RUNS,
          CERTIFY_CEILING,
          CERTIFY_FRAMES,
          CERTIFY_FRAME_SIZE,
          CERTIFY_INTERVAL,
          ADAPTIVE_TARGET,
          PARAMETER,
          LOW,
          HIGH,
          TOLERANCE,
          COALESCING_ABOVE,
          MAX_CELLS,
          SIZES,
          ATTEMPTS,
          STALL_OVER,
          BISECT_TOLERANCE,
          ATTEMPT_TIMEOUT,
          KA_REQUESTS,
          KA_BODY,
          KA_CLIENT_NODELAY,
          KA_STALL_OVER,
          SERVER_NAME,
          SERVER_RCVBUF,
          SERVER_READ_DELAY,
          SERVER_NODELAY,
          SERVER_PATH,
          SERVER_MTU,
          CLUSTER_NAME,
          CLUSTER_AT,
          CLUSTER_JOIN,
          CLUSTER_SECRET_FILE,
          CLUSTER_LEASE);

  /** The keys of a section, in reference order. */
  public static List<Key> in(Section section) {
    return ALL.stream().filter(k -> k.section() == section).toList();
  }

  /** Their names: what is allowed in that section. */
  public static List<String> names(Section section) {
    return in(section).stream().map(Key::name).toList();
  }

  /**
   * The settings a sweep may vary, in reference order: every cell setting (not the headers maps,
   * not listen).
   */
  public static List<Key> sweepable() {
    return Arrays.stream(Setting.values()).map(Setting::key).toList();
  }

  /** The target keys a kind takes. */
  public static List<String> targetKeys(TargetKind kind) {
    List<String> out = new ArrayList<>();
    for (Key k : in(TARGET)) if (k.appliesTo().contains(kind)) out.add(k.name());
    return out;
  }
}
