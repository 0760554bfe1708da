package flushlab.map;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.cli.Main;
import flushlab.HostStalls;
import flushlab.core.Json;
import flushlab.proxy.ProxyKind;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.scenario.RealProxiesTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * `flushlab map` against built-in relays whose settings it is not told: each is drawn at random
 * on every run (the seed is printed; -Dflushlab.seed=N replays it), and the map must name the
 * kind and recover each value within 10 %.
 */
class MapCommandTest {
  static Random random;

  @BeforeAll
  static void seed() {
    long seed = Long.getLong("flushlab.seed", System.nanoTime());
    System.out.println("MapCommandTest seed " + seed + " (replay with -Dflushlab.seed=" + seed + ")");
    random = new Random(seed);
  }

  @TempDir
  Path dir;

  static int between(int lo, int hi) {
    return lo + random.nextInt(hi - lo + 1);
  }

  /** Runs `flushlab map --shape ...` and returns its JSON answer. */
  JsonNode map(String... shapes) throws Exception {
    List<String> target = new ArrayList<>();
    for (String s : shapes) {
      target.add("--shape");
      target.add(s);
    }
    return mapWith(target);
  }

  /** Runs `flushlab map` with these target flags and returns its JSON answer. */
  JsonNode mapWith(List<String> targetFlags) throws Exception {
    List<String> args = new ArrayList<>(List.of("map", "--results", dir.resolve("results").toString(), "--json",
        dir.resolve("map.json").toString()));
    args.addAll(targetFlags);
    String shapes = String.join(" ", targetFlags);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args.toArray(String[]::new), new PrintStream(out), new PrintStream(err));
    if (code != 0) HostStalls.skipIfSaidIn(err.toString());
    // an answer this host's stalls left inconclusive fails an --expect too: the stall is what to report
    if (Files.exists(dir.resolve("map.json"))) HostStalls.skipIfSaidIn(Json.MAPPER.readTree(dir.resolve("map.json").toFile()).get("verdict").asText());
    assertThat(code).as(out + "\n" + err).isZero();
    JsonNode answer = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
    System.out.println("map " + shapes + " -> " + answer.get("verdict").asText() + " ("
        + answer.get("seconds").asDouble() + " s, " + answer.get("cell_count").asInt() + " cells)");
    return answer;
  }

  /**
   * The answer's model is a chain `--shape` takes, matching {@code pattern}; each number it
   * captures within 10 % of the hidden value in the same place of {@code expected}.
   */
  static void modelIs(JsonNode answer, String pattern, double... expected) {
    JsonNode model = answer.get("model");
    assertThat(model.get("chain").isTextual()).as("a model for " + answer.get("verdict").asText() + ": " + model).isTrue();
    String chain = model.get("chain").asText();
    assertThat(ShaperRegistry.parseChain(chain)).as(chain).isNotEmpty();
    Matcher m = Pattern.compile(pattern).matcher(chain);
    assertThat(m.matches()).as(chain + " matches " + pattern).isTrue();
    for (int i = 0; i < expected.length; i++) {
      assertThat(Double.parseDouble(m.group(i + 1))).as("value %d of %s", i + 1, chain).isBetween(expected[i] * 0.9, expected[i] * 1.1);
    }
  }

  /** The answer names {@code kind}; otherwise the failure shows its verdict and evidence. */
  static void kindIs(JsonNode answer, String kind) {
    assertThat(answer.get("kind").asText()).as(answer.get("verdict").asText() + "; evidence: " + answer.get("evidence")).isEqualTo(kind);
  }

  static void within10Percent(JsonNode answer, String field, double expected) {
    assertThat(answer.get(field).isNumber()).as(field + " in " + answer).isTrue();
    assertThat(answer.get(field).asDouble()).as(field + " (expected %s): %s", expected, answer.get("verdict").asText())
        .isBetween(expected * 0.9, expected * 1.1);
  }

  @Test
  void none() throws Exception {
    JsonNode a = mapWith(List.of("--shape", "passthrough", "--expect", "none"));
    assertThat(a.get("kind").asText()).isEqualTo("none");
    modelIs(a, "passthrough");
    assertThat(a.get("threshold_bytes").isNull()).isTrue();
    assertThat(a.get("timer_ms").isNull()).isTrue();
  }

  /** Asked to expect `none` (as a CI pipeline would), a target that drains fails the command with the difference; the answer is still written. */
  @Test
  void drain() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"map", "--shape", "drain-and-flush", "--expect", "none", "--results", dir.resolve("results").toString(),
        "--json", dir.resolve("map.json").toString()}, new PrintStream(out), new PrintStream(err));
    HostStalls.skipIfSaidIn(err.toString());
    JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
    HostStalls.skipIfSaidIn(a.get("verdict").asText());
    kindIs(a, "drain");
    modelIs(a, "drain-and-flush");
    assertThat(code).as(out + "\n" + err).isEqualTo(1);
    assertThat(err.toString()).contains("--expect none: not met: the answer is drain, not none");
  }

  /** The relay counts the bytes it receives from upstream: chunk framing included, as threshold_bytes does. */
  @Test
  void byteThreshold() throws Exception {
    int n = between(300, 8000);
    JsonNode a = map("byte-threshold=" + n + "B");
    kindIs(a, "byte-threshold");
    within10Percent(a, "threshold_bytes", n);
    assertThat(a.get("threshold_body_bytes").asDouble()).isLessThan(a.get("threshold_bytes").asDouble());
    modelIs(a, "byte-threshold=(\\d+)B", n);
    // the model, given to --shape as printed, is mapped as the same mechanism at the same size
    String model = a.get("model").get("chain").asText();
    JsonNode again = map(model);
    assertThat(again.get("kind").asText()).as("the model " + model + ": " + again.get("verdict").asText()).isEqualTo("byte-threshold");
    within10Percent(again, "threshold_bytes", n);
    assertThat(a.get("timer_ms").isNull()).isTrue();
  }

  /**
   * A window whose receiver grants what it consumed on a timer: the stream that outruns it leaves
   * in bursts of exactly one window, one timer apart. The draw keeps window / timer under 1.2 kB/ms
   * (the large-frame cell sends 2 kB/ms, so it outruns every window drawn) and over 0.5 kB/ms (so
   * that cell's 2.4 MB take at most ~5 s).
   */
  @Test
  void aHiddenFlowControlWindowIsFoundWithin10Percent() throws Exception {
    int after = between(40, 80);
    int window = between(Math.max(16 * 1024, after * 512), after * 1229);
    JsonNode a = map("window=" + window + "B,update=timer,after=" + after + "ms");
    kindIs(a, "window");
    within10Percent(a, "threshold_bytes", window);
    within10Percent(a, "timer_ms", after);
    modelIs(a, "window=(\\d+)B,update=timer,after=([0-9.]+)ms", window, after);
  }

  /**
   * Updates that follow each consumed byte one round trip later clock the sender smoothly: no burst
   * size to read, and the map does not invent one; it says the target falls behind. On a loaded
   * host the client's reads can bunch, and then the grants do too, and stay bunched (each burst is
   * read as one, and granted as one a round trip later): the target then really releases in bursts,
   * and the map may name them, but never a grant larger than the window, nor any other mechanism.
   * (Seen in CI runs on 2026-12-02: "~24447 B through per update, updates 43.1 ms apart" and "~11487 B, 22.9 ms apart":
   * several bursts in flight per round trip, never more than a window's worth.)
   */
  @Test
  void aWindowUpdatedAsBytesAreConsumedIsNeverGivenASizeItDidNotShow() throws Exception {
    JsonNode a = map("window=32KiB,rtt=50ms");
    String kind = a.get("kind").asText();
    System.out.println("MapCommandTest: window=32KiB,rtt=50ms -> " + kind + ": " + a.get("verdict").asText());
    assertThat(kind).as(a.get("verdict").asText()).isIn("inconclusive", "window");
    if (kind.equals("inconclusive")) {
      assertThat(a.get("verdict").asText()).contains("falls behind");
    } else {
      double grant = a.get("threshold_bytes").asDouble();
      double apartMs = a.get("timer_ms").asDouble();
      assertThat(grant).as("a grant no larger than the window").isLessThanOrEqualTo(32 * 1024);
      // bunched grants keep one window in flight per round trip, in one burst or in several (a CI run on 2026-12-02 saw
      // ~11.5 kB every 22.9 ms): never faster than a window per round trip, and never further apart than two
      assertThat(grant / apartMs).as("bytes per ms through the window").isLessThanOrEqualTo(32 * 1024 / 50.0 * 1.1);
      assertThat(apartMs).as("bursts at most two round trips apart").isLessThanOrEqualTo(100.0);
    }
  }

  /**
   * Each event held until the next, behind a path latency it is not told (0-20 ms): named one-late
   * from any frames and intervals, never a hold timer of one interval.
   */
  @Test
  void oneEventLateIsNamedNotATimer() throws Exception {
    int latency = between(0, 20);
    JsonNode a = latency == 0 ? map("one-late") : map("latency=" + latency + "ms", "one-late");
    kindIs(a, "one-late");
    assertThat(a.get("timer_ms").isNull()).isTrue();
    modelIs(a, "one-late");
  }

  /** Frames stream, but the comments sent through a think arrive only with the first frame: first-content, not none. */
  @Test
  void holdingEverythingBeforeTheFirstFrameIsNamedFirstContent() throws Exception {
    JsonNode a = map("first-content=any");
    kindIs(a, "first-content");
    modelIs(a, "first-content=any");
  }

  @Test
  void holdTimer() throws Exception {
    int t = between(30, 400);
    JsonNode a = map("timer=" + t + "ms");
    kindIs(a, "timer");
    within10Percent(a, "timer_ms", t);
    modelIs(a, "timer=([0-9.]+)ms", t);
  }

  /**
   * Its releases carry several hundred KB (the large-frame cell), read in many reads: still one
   * release each, and no threshold. Timers up to 300 ms (releases up to ~600 KB): with the suite's
   * three classes at once a 390 ms timer's ~800 KB releases reached the client in parts a few ms
   * apart, which no single mechanism fits (the map said inconclusive). Releases split on their way
   * are the map's to learn (issue 35), not this test's to hide by retrying.
   */
  @Test
  void holdTimerWithReleasesOver64KiB() throws Exception {
    int t = between(150, 300);
    JsonNode a = map("timer=" + t + "ms");
    kindIs(a, "timer");
    within10Percent(a, "timer_ms", t);
    assertThat(a.get("threshold_bytes").isNull()).isTrue();
    double largest = 0;
    for (JsonNode c : a.get("cells")) largest = Math.max(largest, c.get("release_frames").asDouble() * c.get("frame_bytes").asDouble());
    assertThat(largest).as("bytes per release in the large-frame cell").isGreaterThan(64 * 1024);
  }

  @Test
  void periodicTimer() throws Exception {
    int p = between(60, 300);
    JsonNode a = map("timer=" + p + "ms,periodic=true");
    kindIs(a, "periodic-timer");
    within10Percent(a, "timer_ms", p);
    modelIs(a, "timer=([0-9.]+)ms,periodic=true", p);
  }

  /**
   * Two mechanisms at once: a buffer of N bytes, then the relay's client socket with Nagle on. When
   * Nagle shows (4 KiB frames every 2 ms pass the buffer and leave 16 to a segment), no one
   * mechanism explains the cells, so the map replays the buffer followed by Nagle and gives it only
   * as it reproduced every cell. Nagle shows only while the client delays its ACKs: in one suite
   * run of five the kernel acknowledged each 4 KiB frame before the next was written, the cell
   * streamed, and the map rightly named the buffer alone. N is drawn where the buffer's releases of
   * 60 B frames come slower than a delayed ACK.
   */
  @Test
  void aBufferThenNagleIsNamedAsBothOnceItsReplayReproducesTheTarget() throws Exception {
    int n = between(2500, 6000);
    JsonNode a = map("byte-threshold=" + n + "B -> nagle");
    kindIs(a, "byte-threshold");
    within10Percent(a, "threshold_bytes", n);
    JsonNode large = null;
    for (JsonNode c : a.get("cells")) if (c.get("label").asText().startsWith("frame_size=4096B interval=2ms")) large = c;
    assertThat(large).as("the 4 KiB cell").isNotNull();
    if (a.get("then").isNull()) {
      System.out.println("MapCommandTest: Nagle held nothing this run (the 4 KiB cell: " + large.get("release_frames") + " frames per release)");
      // the buffer alone lets 4 KiB frames (4104 B on the wire) out ceil(N / 4104) at a time: one below 4104 B, two above
      long byTheBuffer = (long) Math.ceil(n / 4104.0);
      assertThat(large.get("release_frames").asDouble()).as("named the buffer alone: the 4 KiB frames left %d at a time", byTheBuffer)
          .isLessThanOrEqualTo(byTheBuffer);
      modelIs(a, "byte-threshold=(\\d+)B", n);
      return;
    }
    assertThat(a.get("then").asText()).isEqualTo("nagle");
    assertThat(large.get("release_bytes_p50").asDouble()).as("a segment at a time").isGreaterThan(32768);
    modelIs(a, "byte-threshold=(\\d+)B -> nagle", n);
    assertThat(a.get("replay").asText()).startsWith("verified: the model byte-threshold=").contains("-> nagle reproduces");
  }

  @Test
  void thresholdOrTimer() throws Exception {
    int n = between(1000, 4000);
    int t = between(60, 300);
    // replayed (--verify): the model, a relay with both, reproduces every cell the target showed
    JsonNode a = mapWith(List.of("--shape", "threshold-or-timer,bytes=" + n + "B,after=" + t + "ms", "--verify"));
    kindIs(a, "threshold-or-timer");
    within10Percent(a, "threshold_bytes", n);
    within10Percent(a, "timer_ms", t);
    modelIs(a, "threshold-or-timer,bytes=(\\d+)B,after=([0-9.]+)ms", n, t);
    assertThat(a.get("replay").asText()).startsWith("verified: the model threshold-or-timer,bytes=");
  }

  /** The kernel's TCP_CORK: a ~200 ms hold, and full segments (64 KiB on loopback) at once. */
  @Test
  void cork() throws Exception {
    JsonNode a = map("cork");
    kindIs(a, "cork");
    modelIs(a, "cork");
    assertThat(a.get("timer_ms").asDouble()).as(a.get("verdict").asText()).isBetween(190.0, 215.0);
  }

  /** A noisy path in front: latency with jitter (order kept) does not move a byte threshold. */
  @Test
  void byteThresholdBehindLatencyWithJitter() throws Exception {
    int n = between(1000, 6000);
    JsonNode a = map("latency=3ms,jitter=1ms", "byte-threshold=" + n + "B");
    kindIs(a, "byte-threshold");
    within10Percent(a, "threshold_bytes", n);
  }

  /**
   * Stock HAProxy sends each frame with MSG_MORE (strace shows one send per frame), so the kernel
   * corks it: the map must say cork, with the kernel's ~200 ms (RTO_MIN on loopback) as the hold.
   */
  @Test
  void stockHaproxyIsACork() throws Exception {
    RealProxiesTest.need(ProxyKind.HAPROXY);
    Path bundle = dir.resolve("bundle");
    JsonNode a = mapWith(List.of("--proxy", "haproxy", "--config", "scenarios/proxies/haproxy-stock.cfg", "--repro", bundle.toString()));
    kindIs(a, "cork");
    assertThat(a.get("timer_ms").asDouble()).as(a.get("verdict").asText()).isBetween(190.0, 230.0);
    reproducesWithoutTheProxy(bundle, "cork");
  }

  /**
   * A row of a results.json whose every run was excluded has no figures: when each run was spoiled
   * by this host (a host stall, an emitter its loop's host stall held, or one late by at most twice the longest stall), the test
   * has no result to judge, as {@link HostStalls} says; otherwise the row is judged, and fails.
   */
  static void skipIfEveryRunWasSpoiledByThisHost(JsonNode row) {
    List<String> reasons = new ArrayList<>();
    for (JsonNode run : row.get("runs")) {
      if (!run.get("excluded").asBoolean()) return;
      double hostMaxMs = 0;
      for (JsonNode h : run.path("hiccups")) hostMaxMs = Math.max(hostMaxMs, h.path("host").path("max_ms").asDouble());
      boolean spoiled = run.get("exclusion_cause").asText().equals("host-stall") || run.get("exclusion_cause").asText().equals("emitter-held-by-host")
          || run.get("exclusion_cause").asText().equals("emitter-late") && hostMaxMs >= run.get("emitter_max_lateness_ms").asDouble() / 2;
      if (!spoiled) return;
      reasons.add(run.get("exclusion_reason").asText() + " (host stalled up to " + hostMaxMs + " ms)");
    }
    if (!reasons.isEmpty()) HostStalls.skip("host stall, not a result: every run of " + row.get("target").asText() + " was excluded: " + reasons);
  }

  /**
   * The --repro bundle of a lab-started proxy: its README names the proxy's version, its config
   * is beside it, and its scenario runs the model as a built-in relay (no proxy) that holds the
   * stream as the proxy did while the direct path streams.
   */
  void reproducesWithoutTheProxy(Path bundle, String model) throws Exception {
    String readme = java.nio.file.Files.readString(bundle.resolve("README.md"));
    assertThat(readme).contains("a haproxy the lab started").contains("HAProxy version").contains("`" + model + "`");
    assertThat(bundle.resolve("proxy-config.txt")).exists();
    assertThat(Json.MAPPER.readTree(bundle.resolve("map.json").toFile()).get("model").get("chain").asText()).isEqualTo(model);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path results = dir.resolve("bundle-results");
    int code = Main.run(new String[] {"run", bundle.resolve("scenario.yaml").toString(), "--results", results.toString()},
        new PrintStream(out), new PrintStream(err));
    if (code != 0) HostStalls.skipIfSaidIn(err.toString());
    assertThat(code).as(out + "\n" + err).isZero();
    Path folder;
    try (var l = java.nio.file.Files.list(results)) {
      folder = l.findFirst().orElseThrow();
    }
    double direct = 0;
    double relay = 0;
    for (JsonNode cell : Json.MAPPER.readTree(folder.resolve("results.json").toFile()).get("cells")) {
      skipIfEveryRunWasSpoiledByThisHost(cell);
      double fpr = cell.get("metrics").get("frames_per_read").asDouble();
      if (cell.get("target").asText().equals("direct")) direct = fpr;
      if (cell.get("target").asText().equals("model")) relay = fpr;
    }
    System.out.printf("MapCommandTest: the bundle's scenario: direct %.2f, the model %s %.2f frames per read%n", direct, model, relay);
    assertThat(direct).as("the direct path").isLessThanOrEqualTo(1.10);
    assertThat(relay).as("the model, as the proxy held the stream").isGreaterThan(10);
  }

  /** HAProxy compressing event streams holds each one until the next: one-late for a client that accepts gzip, none for one that does not. */
  @Test
  void haproxyCompressionIsOneLateForClientsThatAcceptGzip() throws Exception {
    RealProxiesTest.need(ProxyKind.HAPROXY);
    JsonNode a = mapWith(List.of("--proxy", "haproxy", "--config", "scenarios/proxies/haproxy-compression.cfg"));
    // the top-level answer is the client the map was (the bare one, accepting no compression); the browser's is under compression
    kindIs(a, "none");
    assertThat(a.get("compression").get("accepting").get("kind").asText())
        .as(a.get("verdict").asText() + "; evidence: " + a.get("compression").get("accepting").get("evidence") + "; cells: "
            + a.get("compression").get("accepting").get("cells")).isEqualTo("one-late");
    // no flush policy of the lab's compressor holds each event until the next: no model, and the answer says why
    assertThat(a.get("model").get("chain").isNull()).as(a.get("model").toString()).isTrue();
    assertThat(a.get("model").get("note").asText()).contains("one-late");
  }

  /**
   * `map --http h2c` against a server that floods every connection with PINGs and reads none of the
   * answers (the case ran 31 s on a 20 s budget and ended in a bare TimeoutException): the
   * map ends within its budget, and what it says names the flood.
   */
  @Test
  void aServerFloodingPingsEndsTheMapWithinItsBudgetAndSaysWhy() throws Exception {
    try (java.net.ServerSocket server = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> {
        while (!server.isClosed()) {
          try {
            java.net.Socket s = server.accept();
            Thread flood = new Thread(() -> {
              try (s) {
                java.io.OutputStream out = s.getOutputStream();
                out.write(flushlab.http.H2.settings());
                byte[] ping = flushlab.http.H2.frame(flushlab.http.H2.PING, 0, 0, new byte[8]);
                byte[] batch = new byte[ping.length * 1000];
                for (int i = 0; i < 1000; i++) System.arraycopy(ping, 0, batch, i * ping.length, ping.length);
                for (int i = 0; i < 4000; i++) out.write(batch); // never reading
              } catch (java.io.IOException e) {
                // the client gave up on the connection
              }
            });
            flood.setDaemon(true);
            flood.start();
          } catch (java.io.IOException closed) {
            return;
          }
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      Path json = dir.resolve("flood.json");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      long t0 = System.nanoTime();
      int code = Main.run(new String[] {"map", "--target", "127.0.0.1:" + server.getLocalPort(), "--emitter-listen",
          "127.0.0.1:" + flushlab.FreePort.forALaterServer(), "--http", "h2c", "--budget", "10s", "--results",
          dir.resolve("results").toString(), "--json", json.toString()}, new PrintStream(out), new PrintStream(err));
      double seconds = (System.nanoTime() - t0) / 1e9;
      String said = out + "\n" + err + (java.nio.file.Files.exists(json) ? java.nio.file.Files.readString(json) : "");
      HostStalls.skipIfSaidIn(said);
      System.out.printf("MapCommandTest: a PING-flooding target: exit %d after %.1f s (budget 10 s)%n%s%n", code, seconds, said);
      assertThat(seconds).as(said).isLessThan(15.0);
      assertThat(said).contains("inconclusive: the target failed").contains("faster than it read the answers")
          .doesNotContain("TimeoutException");
    }
  }

  /** --target: a server the user runs (here a relay the test starts), forwarding to the emitter the map starts on --emitter-listen. */
  @Test
  void aServerTheUserRunsIsMappedThroughTarget() throws Exception {
    int n = between(1000, 6000);
    int emitterPort;
    emitterPort = flushlab.FreePort.forALaterServer();
    io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    try {
      Relay relay = new Relay(RelayOptions.loopback(emitterPort,
          List.of("byte-threshold=" + n + "B")), RelayLog.SILENT);
      vertx.deployVerticle(relay).await(10, java.util.concurrent.TimeUnit.SECONDS);
      JsonNode a = mapWith(List.of("--target", "127.0.0.1:" + relay.port(), "--emitter-listen", "127.0.0.1:" + emitterPort));
      kindIs(a, "byte-threshold");
      within10Percent(a, "threshold_bytes", n);
    } finally {
      vertx.close().await(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  /**
   * Go's ReverseProxy streams an event stream but holds a body with a Content-Length in its 4 KiB
   * buffer (the stream-if relay follows its rule): mapped with such responses (--response), the
   * map finds the buffer, where event streams would have answered none (StreamIfTest).
   */
  @Test
  void aProxyThatStreamsOnlyEventStreamsIsMappedWithTheResponseShapeItHolds() throws Exception {
    JsonNode a = mapWith(List.of("--shape", "stream-if,preset=go", "--response", "content_type=application/x-ndjson,transfer=length",
        "--expect", "byte-threshold=4KiB"));
    kindIs(a, "byte-threshold");
    within10Percent(a, "threshold_bytes", 4096);
  }

  /**
   * A compressing relay that sends its output once N compressed bytes wait, N hidden: the lab's
   * own client (no Accept-Encoding) sees it stream; the map asks once more as a browser, is
   * answered in gzip, and locates N in compressed bytes.
   */
  @Test
  void aCompressingRelaysHiddenFlushSizeIsFoundAsAClientThatAcceptsGzip() throws Exception {
    int n = between(800, 4000);
    JsonNode a = map("compress=gzip,flush=bytes,bytes=" + n + "B");
    assertThat(a.get("kind").asText()).as("the bare client's answer: " + a.get("verdict").asText()).isEqualTo("none");
    JsonNode c = a.get("compression");
    assertThat(c.get("coding").asText()).isEqualTo("gzip");
    assertThat(c.get("cause").asBoolean()).as(a.get("verdict").asText()).isTrue();
    assertThat(c.get("accepting_client").asText()).startsWith("browser");
    JsonNode accepting = c.get("accepting");
    assertThat(accepting.get("kind").asText()).as(accepting.get("verdict").asText() + "; evidence: " + accepting.get("evidence"))
        .isEqualTo("byte-threshold");
    within10Percent(accepting, "threshold_bytes", n);
    assertThat(accepting.get("threshold_body_bytes").asDouble()).as("in event bytes, more than compressed")
        .isGreaterThan(accepting.get("threshold_bytes").asDouble());
    assertThat(a.get("verdict").asText()).startsWith("compression is the cause");
    // the model is the compressor: it holds the stream for clients that accept gzip only
    modelIs(a, "compress=gzip,flush=bytes,bytes=(\\d+)B", n);
  }

  /** Asked as a browser, the same relay's threshold is the answer itself, and the other client kind streams. */
  @Test
  void askedAsABrowserTheAnswerIsTheCompressedThresholdAndOthersStream() throws Exception {
    int n = between(800, 4000);
    JsonNode a = mapWith(List.of("--shape", "compress=gzip,flush=bytes,bytes=" + n + "B", "--client", "browser"));
    kindIs(a, "byte-threshold");
    within10Percent(a, "threshold_bytes", n);
    assertThat(a.get("compression").get("others").get("kind").asText()).isEqualTo("none");
    modelIs(a, "compress=gzip,flush=bytes,bytes=(\\d+)B", n);
  }

  /**
   * A server whose every stream the client cannot read (labelled br, its bytes gzip): no cell has
   * a frame, so the map names no mechanism; it says inconclusive, why, and fails.
   */
  @Test
  void aTargetWhoseStreamsCannotBeDecodedIsInconclusiveNeverNone() throws Exception {
    io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    try {
      byte[] gz;
      try (ByteArrayOutputStream b = new ByteArrayOutputStream(); java.util.zip.GZIPOutputStream z = new java.util.zip.GZIPOutputStream(b)) {
        z.write(flushlab.ScriptedServer.frames(60, 0, 1, 2));
        z.finish();
        gz = b.toByteArray();
      }
      byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: br\r\nConnection: close\r\n\r\n")
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      byte[] body = gz;
      flushlab.ScriptedServer server = flushlab.ScriptedServer.playing(vertx, List.of(new flushlab.ScriptedServer.Step(0, () -> head),
          new flushlab.ScriptedServer.Step(5, () -> body)));
      List<String> args = List.of("map", "--results", dir.resolve("results").toString(), "--json", dir.resolve("map.json").toString(),
          "--target", "127.0.0.1:" + server.port(), "--emitter-listen", "127.0.0.1:" + flushlab.FreePort.forALaterServer(),
          "--client", "browser");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = Main.run(args.toArray(String[]::new), new PrintStream(out), new PrintStream(err));
      JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
      System.out.println("undecodable target -> " + a.get("verdict").asText());
      assertThat(code).as(out + "\n" + err).isNotZero();
      assertThat(a.get("kind").asText()).isEqualTo("inconclusive");
      assertThat(a.get("verdict").asText()).contains("could not be decoded").doesNotContain("none:");
    } finally {
      vertx.close().await(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  /**
   * A server that ends every response cleanly after three frames, whatever was asked: each stream
   * is complete as HTTP but lost most of its frames; the map infers nothing from such a cell.
   */
  @Test
  void aCellThatLostFramesMakesTheMapInconclusive() throws Exception {
    io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    try {
      byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      flushlab.ScriptedServer server = flushlab.ScriptedServer.playing(vertx, List.of(new flushlab.ScriptedServer.Step(0, () -> head),
          new flushlab.ScriptedServer.Step(2, () -> flushlab.ScriptedServer.frames(66, 0, 1, 2))));
      List<String> args = List.of("map", "--results", dir.resolve("results").toString(), "--json", dir.resolve("map.json").toString(),
          "--target", "127.0.0.1:" + server.port(), "--emitter-listen", "127.0.0.1:" + flushlab.FreePort.forALaterServer());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int code = Main.run(args.toArray(String[]::new), new PrintStream(out), new PrintStream(new ByteArrayOutputStream()));
      JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
      System.out.println("a target that loses frames -> " + a.get("verdict").asText());
      // both runs spoiled by this host (a CPU hog's run-queue waits) end the pass before its losses are read: a host stall, not a result
      HostStalls.skipIfSaidIn(a.get("verdict").asText());
      assertThat(a.get("kind").asText()).as(out.toString()).isEqualTo("inconclusive");
      assertThat(a.get("verdict").asText()).contains("frames of frame_size=60B interval=2ms frames=600 were lost")
          .contains("nothing is inferred from it");
      assertThat(code).isZero(); // answered: inconclusive, saying why
    } finally {
      vertx.close().await(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }
}
