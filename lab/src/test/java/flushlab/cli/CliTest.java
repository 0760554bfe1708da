package flushlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands return exit codes and say exactly what was wrong; only Main exits. */
class CliTest {
  record Ran(int code, String out, String err) {}

  static Ran run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out), new PrintStream(err));
    return new Ran(code, out.toString(), err.toString());
  }

  @Test
  void aFlagWithoutItsUnitIsRefusedNamingTheFlag() {
    Ran r = run("client", "--target", "http://127.0.0.1:1/sse", "--timeout", "5");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--timeout").contains("duration");
  }

  @Test
  void aTargetThatIsNotAnHttpUrlIsRefused() {
    Ran r = run("client", "--target", "https://example.invalid/sse");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--target").contains("http://host:port/path");
  }

  @Test
  void aClosedPortIsReportedPlainlyWithExitCode1() throws Exception {
    int port;
    try (var s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // closed again before the client connects
    }
    Ran r = run("client", "--target", "http://127.0.0.1:" + port + "/sse?frames=3");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("could not connect").contains("127.0.0.1:" + port);
  }

  @Test
  void anUnknownShaperIsRefusedWithTheKnownOnes() {
    Ran r = run("relay", "--upstream", "127.0.0.1:8090", "--shape", "corked");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--shape corked").contains("unknown shaper 'corked'").contains("cork, nagle");
  }

  @Test
  void aPortInUseIsReportedPlainly() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      NetServer busy = vertx.createNetServer().connectHandler(so -> {}).listen(0, "127.0.0.1").await(5, TimeUnit.SECONDS);
      Ran r = run("relay", "--listen", "127.0.0.1:" + busy.actualPort(), "--upstream", "127.0.0.1:9");
      assertThat(r.code()).isEqualTo(1);
      assertThat(r.err()).contains("cannot listen on 127.0.0.1:" + busy.actualPort()).containsIgnoringCase("in use");
    } finally {
      vertx.close().await(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void validateNamesFileLineAndKeyAndExits2(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("s.yaml");
    Files.writeString(f, "name: s\nemitter:\n  interval: 50\ntargets: [{name: d, kind: direct}]\n");
    Ran r = run("validate", f.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains(f + ":3:").contains("emitter.interval");
    assertThat(run("validate", "scenarios/quickstart.yaml").code()).isZero();
  }

  @Test
  void anUnknownCommandIsAUsageError() {
    Ran r = run("frobnicate");
    assertThat(r.code()).isEqualTo(2);
  }
}
