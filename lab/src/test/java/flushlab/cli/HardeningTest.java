package flushlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.HostStalls;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a careless or hostile user can hand the command line, on real files and sockets: devices,
 * pipes and undecodable scenarios are refused before any work, a budget bounds every request under
 * it, and addresses, shaper specs and results files outside what is valid are usage errors (exit
 * 2).
 */
class HardeningTest {
  private static CliTest.Ran run(String... args) {
    return CliTest.run(args);
  }

  @Test
  void aCaFileThatIsADeviceOrAPipeIsRefusedBeforeAnyWork(@TempDir Path dir) throws Exception {
    long start = System.nanoTime();
    CliTest.Ran zero =
        run("client", "--target", "https://127.0.0.1:1/sse", "--ca-file", "/dev/zero");
    assertThat(zero.code()).isEqualTo(2);
    assertThat(zero.err()).contains("--ca-file /dev/zero: not a regular file");
    Path fifo = dir.resolve("ca.fifo");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mk.waitFor()).isZero();
    CliTest.Ran pipe =
        run("client", "--target", "https://127.0.0.1:1/sse", "--ca-file", fifo.toString());
    assertThat(pipe.code()).isEqualTo(2);
    assertThat(pipe.err()).contains("not a regular file");
    assertThat((System.nanoTime() - start) / 1e9).as("refused at once, not read").isLessThan(5.0);
    Path big = dir.resolve("big.pem");
    Files.write(big, new byte[(1 << 20) + 1]);
    CliTest.Ran huge =
        run("client", "--target", "https://127.0.0.1:1/sse", "--ca-file", big.toString());
    assertThat(huge.code()).isEqualTo(2);
    assertThat(huge.err()).contains("larger than 1MiB");
  }

  @Test
  void aScenarioThatIsADeviceBinaryOrUtf16IsRefusedWithWhere(@TempDir Path dir) throws Exception {
    CliTest.Ran dev = run("validate", "/dev/zero");
    assertThat(dev.code()).isEqualTo(2);
    assertThat(dev.err()).contains("/dev/zero: not a regular file");

    Path bom = dir.resolve("utf16.yaml");
    Files.write(
        bom, "name: x\ntargets: [{name: d, kind: direct}]\n".getBytes(StandardCharsets.UTF_16));
    CliTest.Ran utf16 = run("validate", bom.toString());
    assertThat(utf16.code()).isEqualTo(2);
    assertThat(utf16.err())
        .contains("UTF-16 byte-order mark at line 1, column 1")
        .doesNotContain("Input length");

    Path noBom = dir.resolve("utf16le.yaml");
    Files.write(noBom, "name: x\n".getBytes(StandardCharsets.UTF_16LE));
    CliTest.Ran nul = run("validate", noBom.toString());
    assertThat(nul.code()).isEqualTo(2);
    assertThat(nul.err()).contains(noBom + ":1:2: a NUL byte");

    Path binary = dir.resolve("binary.yaml");
    Files.write(
        binary, new byte[] {'n', 'a', 'm', 'e', ':', ' ', 'x', '\n', 'a', (byte) 0xff, 'b'});
    CliTest.Ran bin = run("validate", binary.toString());
    assertThat(bin.code()).isEqualTo(2);
    assertThat(bin.err()).contains("byte 0xff at line 2, column 2 (byte 9)");
  }

  @Test
  void addressesAndShaperSpecsOutsideWhatIsValidAreUsageErrors() {
    CliTest.Ran v6 = run("map", "--target", "http://[::1");
    assertThat(v6.code()).isEqualTo(2);
    assertThat(v6.err()).contains("--target: '[::1' is not host:port");
    CliTest.Ran ftp = run("map", "--target", "ftp://127.0.0.1:21");
    assertThat(ftp.code()).isEqualTo(2);
    assertThat(ftp.err()).contains("is not host:port");
    CliTest.Ran threshold =
        run("relay", "--upstream", "127.0.0.1:8090", "--shape", "byte-threshold=64MiB");
    assertThat(threshold.code()).isEqualTo(2);
    assertThat(threshold.err()).contains("can never be reached").contains("cap=16777216 B");
  }

  @Test
  void compareRefusesANewerSchemaAndAnUnwritablePageBeforeReading(@TempDir Path dir)
      throws Exception {
    Path a = Files.createDirectories(dir.resolve("a"));
    Files.writeString(a.resolve("results.json"), "{\"schema_version\": 999, \"kind\": \"run\"}");
    CliTest.Ran newer =
        run("compare", a.toString(), a.toString(), "--out", dir.resolve("page.html").toString());
    assertThat(newer.code()).isEqualTo(2);
    assertThat(newer.err()).contains("schema_version 999 is not one this flushlab reads (1..2)");
    CliTest.Ran proc =
        run(
            "compare",
            dir.resolve("missing-a").toString(),
            dir.resolve("missing-b").toString(),
            "--out",
            "/proc/x.html");
    assertThat(proc.code()).isEqualTo(2);
    assertThat(proc.err())
        .contains("--out /proc/x.html: cannot write the page there")
        .contains("nothing was read");
  }

  /**
   * The recorded command reproduces the run: the JVM's options (here the tests'
   * -XX:TieredStopAtLevel=1) are in it.
   */
  @Test
  void theRecordedCommandCarriesTheJvmsOptions() {
    assertThat(Invocation.describe(new String[] {"client", "--target", "http://127.0.0.1:1/sse"}))
        .startsWith("java ")
        .contains("-XX:TieredStopAtLevel=1")
        .contains("client --target http://127.0.0.1:1/sse");
  }

  /**
   * A target that accepts and never answers: the map ends within its budget, its requests' own
   * timeout bounded by it.
   */
  @Test
  void aMapsBudgetBoundsTheRequestsUnderIt(@TempDir Path dir) throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> held = new ArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) held.add(silent.accept()); // accepted, never answered
                } catch (Exception e) {
                  // closed at the end
                }
              },
              "silent-target");
      acceptor.setDaemon(true);
      acceptor.start();
      long start = System.nanoTime();
      CliTest.Ran r =
          run(
              "map",
              "--target",
              "127.0.0.1:" + silent.getLocalPort(),
              "--emitter-listen",
              "127.0.0.1:0",
              "--budget",
              "6s",
              "--results",
              dir.toString());
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          "HardeningTest: a map of a silent target with --budget 6s ended after %.1f s, exit %d%n",
          seconds, r.code());
      // this host's stalls can spend the budget on certification: not certified (exit 3), and it
      // says so (s119)
      if (r.code() == 3) HostStalls.skipIfSaidIn(r.out() + r.err());
      assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
      assertThat(seconds).as("the budget, and a little to stop").isLessThan(6 + 5.0);
      for (Socket s : held) s.close();
    }
  }

  @Test
  void aSecretFileThatIsADeviceIsRefused() {
    CliTest.Ran r =
        run(
            "agent",
            "--name",
            "a",
            "--cluster-name",
            "lab",
            "--cluster-host",
            "127.0.0.1:" + 5800,
            "--secret-file",
            "/dev/zero");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--secret-file /dev/zero: not a regular file");
  }

  @Test
  void aSecretFileOthersMayReadIsRefusedWithTheFix(@TempDir Path dir) throws Exception {
    Path secret = dir.resolve("secret");
    Files.writeString(secret, "a secret of more than twelve bytes\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
    CliTest.Ran r =
        run(
            "agent",
            "--name",
            "a",
            "--cluster-name",
            "lab",
            "--cluster-host",
            "127.0.0.1:" + 5800,
            "--secret-file",
            secret.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .contains("is readable by other users (mode rw-r--r--)")
        .contains("chmod 600 " + secret);
  }
}
