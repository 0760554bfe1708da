package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table of proxies: each row's commands with the template and work folder filled in, as the lab
 * runs them (the placeholders never reach a proxy), and Varnish's listen address read from its
 * template.
 */
class ProxyKindTest {
  @TempDir Path dir;

  @Test
  void eachRowFillsItsCommandsWithTheTemplateAndTheWorkFolder() throws Exception {
    Path config = dir.resolve("filled.conf");
    Files.writeString(config, "# listen: 127.0.0.1:8081\nvcl 4.1;\n");
    Path work = dir.resolve("work");
    assertThat(ProxyKind.NGINX.command("nginx", config, work))
        .containsExactly(
            "nginx",
            "-c",
            config.toString(),
            "-p",
            work + "/",
            "-g",
            "daemon off; pid " + work.resolve("nginx.pid") + ";");
    assertThat(ProxyKind.VARNISH.command("varnishd", config, work))
        .containsSequence("-a", "127.0.0.1:8081", "-n", work.resolve("varnish").toString());
    assertThat(ProxyKind.TRAFFICSERVER.command("traffic_server", config, work))
        .containsExactly("traffic_server", "--run-root=" + TrafficServerLayout.runroot(work));
    assertThat(ProxyKind.CADDY.effectiveConfig("caddy", config, work))
        .containsExactly(
            "caddy", "adapt", "--config", config.toString(), "--adapter", "caddyfile", "--pretty");
    assertThat(ProxyKind.SQUID.version("squid")).containsExactly("squid", "-v");
    for (ProxyKind k : List.of(ProxyKind.HAPROXY, ProxyKind.VARNISH, ProxyKind.H2O)) {
      assertThat(k.effectiveConfig(k.binaryName, config, work))
          .as("%s prints no effective configuration; the filled file is recorded", k)
          .isNull();
    }
    for (ProxyKind k : ProxyKind.values()) {
      List<String> everything = new ArrayList<>(k.command(k.binaryName, config, work));
      everything.addAll(k.version(k.binaryName));
      List<String> eff = k.effectiveConfig(k.binaryName, config, work);
      if (eff != null) everything.addAll(eff);
      assertThat(everything).as("%s", k).noneMatch(a -> a.matches(".*\\{\\w+}.*"));
    }
  }

  @Test
  void aVarnishTemplateWithoutItsListenLineIsRefusedNamingIt() throws Exception {
    Path config = dir.resolve("no-listen.vcl");
    Files.writeString(config, "vcl 4.1;\n");
    assertThatThrownBy(() -> ProxyKind.VARNISH.command("varnishd", config, dir))
        .hasMessageContaining(config.toString())
        .hasMessageContaining("# listen:");
  }
}
