package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Traffic Server template's sections become the runroot's files; a template that cannot is
 * refused by name.
 */
class TrafficServerLayoutTest {
  @Test
  void eachSectionBecomesAFileAndTheRunrootPointsThere(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("ats.conf");
    Files.writeString(
        config,
        """
        # a comment before the first section is the template's own
        # file: records.config
        CONFIG proxy.config.http.server_ports STRING 8080
        # a comment inside a section stays in it
        # file: remap.config
        map / http://127.0.0.1:9/
        """);
    TrafficServerLayout.write("/usr/bin/traffic_server", config, dir);
    assertThat(Files.readString(dir.resolve("etc/records.config")))
        .isEqualTo(
            "CONFIG proxy.config.http.server_ports STRING 8080\n# a comment inside a section stays in it\n");
    assertThat(Files.readString(dir.resolve("etc/remap.config")))
        .isEqualTo("map / http://127.0.0.1:9/\n");
    assertThat(Files.readString(dir.resolve("etc/plugin.config"))).isEmpty();
    String runroot = Files.readString(TrafficServerLayout.runroot(dir));
    assertThat(runroot)
        .contains(
            "sysconfdir: " + dir.resolve("etc"),
            "logdir: " + dir.resolve("log"),
            "libexecdir: /usr/lib/trafficserver/modules",
            "bindir: /usr/bin");
    assertThat(dir.resolve("cache")).isDirectory();
  }

  @Test
  void aTemplateWithoutRemapOrWithAPathAsANameIsRefusedByName() {
    Path t = Path.of("scenarios/proxies/x.conf");
    assertThatThrownBy(
            () -> TrafficServerLayout.sections("# file: records.config\nCONFIG a INT 1\n", t))
        .hasMessageContaining("x.conf")
        .hasMessageContaining("'# file: remap.config'");
    assertThatThrownBy(() -> TrafficServerLayout.sections("# file: ../records.config\n", t))
        .hasMessageContaining("'# file: ../records.config' is not a plain file name");
    assertThatThrownBy(
            () ->
                TrafficServerLayout.sections(
                    "# file: records.config\n# file: remap.config\n# file: remap.config\n", t))
        .hasMessageContaining("appears twice");
  }

  @Test
  void itsVersionIsTheVersionLineWithoutTheRunrootNote() {
    assertThat(
            TrafficServerLayout.withoutNotes(
                "NOTE: using cwd as TS_RUNROOT\nTraffic Server 9.2.9 Apr  4 2026"))
        .isEqualTo("Traffic Server 9.2.9 Apr  4 2026");
  }
}
