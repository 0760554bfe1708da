package flushlab.netpath;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.Await;
import flushlab.ForkedLab;
import flushlab.HostStalls;
import flushlab.cli.Main;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.StreamResult;
import flushlab.core.Json;
import flushlab.core.LabVertx;
import flushlab.core.LongSamples;
import flushlab.emitter.PacingAudit;
import flushlab.process.WorkFolders;
import flushlab.proxy.ProxyProcess;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The veth path: made and removed by the lab, carrying streams exactly, with a real path's segment
 * size.
 */
class VethPathTest {
  private static Vertx vertx;

  static void needVeth() {
    String why = VethLink.unavailableReason();
    if (why != null) System.out.println("SKIPPED (VethPathTest): " + why);
    Assumptions.assumeTrue(why == null, why);
  }

  @BeforeAll
  static void up() {
    vertx = LabVertx.create(1);
  }

  @AfterAll
  static void down() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private static BatchResult stream(String url) throws Exception {
    MeteredClient client =
        new MeteredClient(vertx, new ClientOptions(1, 1, false, 30_000_000_000L, 0, 65536));
    try {
      return client.run(RequestPlan.get(url)).await(40, TimeUnit.SECONDS);
    } finally {
      client.close();
    }
  }

  @Test
  void startsCarriesAStreamByteExactAndLeavesNoNamespaceLinkOrProcessBehind() throws Exception {
    needVeth();
    String namespace;
    String hostSide;
    Path folder;
    List<ProcessHandle> inside;
    try (VethSite site = VethSite.open(1400)) {
      namespace = site.link().namespace();
      hostSide = site.link().hostSide();
      folder = site.link().folder();
      assertThat(IpCommand.run("netns", "list")).contains(namespace);
      assertThat(IpCommand.run("-o", "link", "show", hostSide)).contains("mtu 1400");
      assertThat(IpCommand.run("-n", namespace, "-o", "link", "show")).contains("mtu 1400");
      inside = pidsIn(namespace);
      assertThat(inside).as("the emitter runs inside the namespace").isNotEmpty();

      BatchResult r = stream("http://" + site.emitter() + "/sse?frames=200&size=700&interval=1ms");
      StreamResult s = r.streamResults().get(0);
      assertThat(s.ok()).as(r.oneLine()).isTrue();
      assertThat(s.integrity().frames()).isEqualTo(200);
      assertThat(
              s.integrity().lost()
                  + s.integrity().corrupt()
                  + s.integrity().duplicated()
                  + s.integrity().reordered())
          .isZero();
      assertThat(s.integrity().unchecked()).isZero();
      // one clock: emit times stamped in the child are on the client's clock (never before the
      // emit)
      assertThat(min(s.timing().emitToRecvNanos())).isPositive();
      PacingAudit.Summary audit = site.audit(s.streamId());
      assertThat(audit).as("the audit read across the link").isNotNull();
      assertThat(audit.complete()).isTrue();
      assertThat(audit.framesWritten()).isEqualTo(200);
      assertThat(audit.held())
          .as("what held its latest frame, judged in the emitter's own process")
          .isNotNull();
    }
    assertThat(IpCommand.run("netns", "list")).doesNotContain(namespace);
    assertThat(IpCommand.run("-o", "link", "show")).doesNotContain(hostSide);
    Await.until(
        "every process of the namespace has exited",
        10_000,
        () -> inside.stream().noneMatch(ProcessHandle::isAlive));
    assertThat(folder).doesNotExist();
  }

  /**
   * Killed with SIGKILL, a lab runs no code: its emitter dies with it, and the next lab removes its
   * namespace.
   */
  @Test
  void aLabKilledWithSigkillLeavesANamespaceTheNextLabRemoves(@TempDir Path dir) throws Exception {
    needVeth();
    String namespace;
    List<ProcessHandle> inside;
    try (ForkedLab lab =
        ForkedLab.start(
            dir,
            List.of(),
            "client",
            "--path",
            "veth",
            "--target",
            "/sse?frames=5000&interval=5ms")) {
      Matcher m = lab.awaitLine("<-> (flushlab-[a-z0-9]+) ", 60_000);
      namespace = m.group(1);
      inside = pidsIn(namespace);
      assertThat(inside).isNotEmpty();
      lab.process().destroyForcibly();
      lab.process().waitFor();
    }
    Await.until(
        "the emitter in the namespace has died with the lab",
        10_000,
        () -> inside.stream().noneMatch(ProcessHandle::isAlive));
    assertThat(IpCommand.run("netns", "list"))
        .as("SIGKILL leaves the namespace")
        .contains(namespace);
    assertThat(VethLink.sweepStale()).isGreaterThanOrEqualTo(1);
    assertThat(IpCommand.run("netns", "list")).doesNotContain(namespace);
  }

  /** Ctrl-C or SIGTERM mid-stream: the lab removes its namespace itself before it exits. */
  @Test
  void anInterruptedLabRemovesItsNamespaceOnTheWayOut(@TempDir Path dir) throws Exception {
    needVeth();
    String namespace;
    try (ForkedLab lab =
        ForkedLab.start(
            dir,
            List.of(),
            "client",
            "--path",
            "veth",
            "--target",
            "/sse?frames=5000&interval=5ms")) {
      Matcher m = lab.awaitLine("<-> (flushlab-[a-z0-9]+) ", 60_000);
      namespace = m.group(1);
      lab.process().destroy(); // SIGTERM
      assertThat(lab.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(IpCommand.run("netns", "list")).doesNotContain(namespace);
  }

  /**
   * `flushlab map --path veth`: the cork relay read as a cork whose segment is this path's MSS, and
   * the results name the path. A corked socket on a 1500-MTU path sends each full segment at once,
   * so the map's cells, 60 B frames every 2 ms among them, arrive as 1448 B releases (one MSS, with
   * timestamps), not as loopback's ~200 ms batches, and the segment it bisects to is the MSS (a
   * test of the relay's releases alone on this path said the same, in half the time again).
   */
  @Test
  void theMapReadsTheCorkRelayOnAVethPathAsACorkOfOneSegment(@TempDir Path dir) throws Exception {
    needVeth();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc =
        Main.run(
            new String[] {
              "map",
              "--shape",
              "cork",
              "--no-verify",
              "--path",
              "veth",
              "--results",
              dir.toString(),
              "--json",
              dir.resolve("map.json").toString()
            },
            new PrintStream(out),
            new PrintStream(out));
    // a direct path this host stalled through twice is not certified (exit 3), and says so: no
    // result, as for any map
    if (rc != 0) HostStalls.skipIfSaidIn(out.toString());
    assertThat(rc).as(out.toString()).isZero();
    JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
    HostStalls.skipIfSaidIn(a.path("verdict").asText());
    assertThat(a.path("kind").asText()).as(out.toString()).isEqualTo("cork");
    assertThat(a.path("threshold_bytes").asDouble()).isBetween(1448 * 0.95, 1448 * 1.05);
    assertThat(out.toString())
        .contains("one TCP segment on this path is 1448 B")
        .contains("over veth, MTU 1500");
  }

  /**
   * A proxy that cannot start on the veth path stops the map plainly, and its namespace and work
   * folder are removed on the way out; a template that could never listen on the path (it names its
   * own address) is refused before any path is made.
   */
  @Test
  void aFailedStartOnTheVethPathLeavesNoNamespace(@TempDir Path dir) throws Exception {
    needVeth();
    Assumptions.assumeTrue(ProxyProcess.locate("haproxy") != null, "needs haproxy");
    String stock = Files.readString(Path.of("scenarios/proxies/haproxy-stock.cfg"));
    Path literal = dir.resolve("literal.cfg");
    Files.writeString(literal, stock.replace("{{listen_host}}", "127.0.0.1"));
    // a keyword HAProxy does not know, in the template's last section: it exits as it reads it
    Path broken = dir.resolve("broken.cfg");
    Files.writeString(broken, stock + "\n    flushlab-no-such-keyword on\n");
    // only this process's namespaces ("flushlab-<pid in base 36>x..."): other test classes, in
    // other forks, make and remove theirs meanwhile
    String mine = "flushlab-" + Long.toString(ProcessHandle.current().pid(), 36) + "x";
    List<String> before = namespacesStartingWith(mine);

    // a mistake in the flags: exit 2, as for any usage error
    String refused = mapOverVeth(literal, dir.resolve("refused"), 2);
    assertThat(refused).contains("--config: ").contains("has no {{listen_host}}");
    assertThat(refused).as("refused before a path was made").doesNotContain("network path veth");

    String failed = mapOverVeth(broken, dir.resolve("failed"), 1);
    assertThat(failed).as("the path was made").contains("network path veth");
    assertThat(failed).contains("haproxy exited with status 1 before it listened");
    assertThat(namespacesStartingWith(mine))
        .as("no namespace left by the failed start")
        .isEqualTo(before);
    long pid = ProcessHandle.current().pid();
    try (var dirs = Files.newDirectoryStream(WorkFolders.root(), "flushlab-haproxy-*")) {
      for (Path d : dirs) {
        assertThat(Files.readString(d.resolve("flushlab-owner")))
            .as("a work folder left by the failed start: %s", d)
            .doesNotStartWith(pid + " ");
      }
    }
  }

  /**
   * `flushlab map` of HAProxy from {@code template} over veth, which must exit with {@code code}:
   * what it said.
   */
  private static String mapOverVeth(Path template, Path results, int code) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc =
        Main.run(
            new String[] {
              "map",
              "--proxy",
              "haproxy",
              "--config",
              template.toString(),
              "--path",
              "veth",
              "--results",
              results.toString()
            },
            new PrintStream(out),
            new PrintStream(out));
    assertThat(rc).as(out.toString()).isEqualTo(code);
    return out.toString();
  }

  /** A bad --path or --mtu is refused by name with what is valid. */
  @Test
  void badPathsAreRefusedWithWhatIsValid() {
    assertThat(Assertions.catchThrowable(() -> NetworkPath.of("--path", "ethernet", null)))
        .hasMessageContaining("--path: 'ethernet' is not a network path (allowed: loopback, veth)");
    assertThat(Assertions.catchThrowable(() -> NetworkPath.of("--path", "veth", 100)))
        .hasMessageContaining("MTU 100 is out of range (allowed: 576..65535)");
    assertThat(Assertions.catchThrowable(() -> NetworkPath.of("--path", "loopback", 1500)))
        .hasMessageContaining("needs path veth");
    assertThat(NetworkPath.veth(1500).mss()).isEqualTo(1448);
  }

  private static List<String> namespacesStartingWith(String prefix) throws IOException {
    return IpCommand.run("netns", "list")
        .lines()
        .map(l -> l.split(" ")[0])
        .filter(n -> n.startsWith(prefix))
        .sorted()
        .toList();
  }

  private static List<ProcessHandle> pidsIn(String namespace) throws IOException {
    List<ProcessHandle> out = new ArrayList<>();
    for (String p : IpCommand.run("netns", "pids", namespace).split("\\s+")) {
      if (!p.isBlank()) ProcessHandle.of(Long.parseLong(p)).ifPresent(out::add);
    }
    return out;
  }

  private static long[] values(LongSamples s) {
    long[] v = new long[s.size()];
    for (int i = 0; i < v.length; i++) v[i] = s.get(i);
    Arrays.sort(v);
    return v;
  }

  private static long min(LongSamples s) {
    return values(s)[0];
  }
}
