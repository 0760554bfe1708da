package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Await;
import flushlab.ForkedLab;
import flushlab.core.ProcFiles;
import flushlab.process.ProcessGuard;
import flushlab.process.WorkFolders;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A proxy the lab started never outlives the lab, however the lab ends. */
class ProxyLifetimeTest {

  static void needNginxAndTheGuard() {
    boolean ok = ProxyProcess.locate("nginx") != null && ProcessGuard.guarded();
    if (!ok)
      System.out.println(
          "SKIPPED (ProxyLifetimeTest): needs nginx and util-linux's setpriv and setsid");
    Assumptions.assumeTrue(ok, "needs nginx, setpriv and setsid");
  }

  /** nginx runs a master and a worker: killing the lab with SIGKILL must take down both. */
  @Test
  void aLabKilledWithSigkillTakesItsNginxAndItsWorkersWithIt(@TempDir Path dir) throws Exception {
    needNginxAndTheGuard();
    Files.createDirectories(dir.resolve("proxies"));
    Files.copy(
        Path.of("scenarios/proxies/nginx-stock.conf"), dir.resolve("proxies/nginx-stock.conf"));
    Files.writeString(
        dir.resolve("long.yaml"),
        """
        name: long
        emitter: {frames: 400, interval: 50ms}
        targets:
          - {name: direct, kind: direct}
          - {name: nginx, kind: process, proxy: nginx, config: proxies/nginx-stock.conf}
        runs: 3
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        """);
    long pid;
    int port;
    Path workdir;
    try (ForkedLab lab = ForkedLab.start(dir, List.of(), "run", "--results", "out", "long.yaml")) {
      Matcher m =
          lab.awaitLine("started nginx: .*\\(pid (\\d+)\\) on 127\\.0\\.0\\.1:(\\d+)", 60_000);
      pid = Long.parseLong(m.group(1));
      port = Integer.parseInt(m.group(2));
      long group =
          ProcessHandle.of(pid)
              .orElseThrow()
              .parent()
              .orElseThrow()
              .pid(); // the guard leads the group
      List<Long> members = WorkFolders.processGroup(group);
      assertThat(members.size())
          .as("the guard, the nginx master and its worker")
          .isGreaterThanOrEqualTo(3);
      assertThat(accepts(port)).isTrue();
      workdir = workFolderOf(lab.process().pid());

      lab.process().destroyForcibly(); // SIGKILL: the lab runs no code of its own
      lab.process().waitFor();
      Await.until(
          "every process of nginx's group has exited",
          10_000,
          () -> members.stream().allMatch(ProxyLifetimeTest::gone));
      assertThat(accepts(port)).as("nobody listens on nginx's port any more").isFalse();
    }
    // The killed lab could not delete nginx's work folder; the next lab that starts a proxy does.
    assertThat(workdir).exists();
    assertThat(WorkFolders.sweepStale()).isGreaterThanOrEqualTo(1);
    assertThat(workdir).doesNotExist();
  }

  @Test
  void aProxyStoppedNormallyLeavesNoWorkFolder(@TempDir Path dir) throws Exception {
    needNginxAndTheGuard();
    ProxyProcess p =
        ProxyProcess.start(
            ProxyKind.NGINX, Path.of("scenarios/proxies/nginx-stock.conf"), "127.0.0.1", 9);
    Path workdir = p.workdir();
    assertThat(workdir).exists();
    p.close();
    assertThat(workdir).doesNotExist();
    assertThat(accepts(p.port())).isFalse();
  }

  /** The nginx work folder whose owner file names this lab process. */
  static Path workFolderOf(long labPid) throws IOException {
    try (var dirs = Files.newDirectoryStream(WorkFolders.root(), "flushlab-nginx-*")) {
      for (Path d : dirs) {
        Path owner = d.resolve("flushlab-owner");
        if (Files.isRegularFile(owner) && Files.readString(owner).startsWith(labPid + " "))
          return d;
      }
    }
    throw new AssertionError("no work folder owned by pid " + labPid);
  }

  /** Exited, or a zombie waiting for init to reap it: either way it runs no more. */
  static boolean gone(long pid) {
    try {
      String stat = ProcFiles.read(Path.of("/proc/" + pid + "/stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return true;
    }
  }

  static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
