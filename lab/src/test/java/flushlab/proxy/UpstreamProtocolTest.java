package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.core.HopProtocol;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The upstream hop each shipped template asks for, read from its text as results record it. */
class UpstreamProtocolTest {
  static HopProtocol of(ProxyKind kind, String template) throws Exception {
    return kind.upstreamProtocol(Files.readString(Path.of("scenarios/proxies", template)));
  }

  @Test
  void eachShippedTemplateNamesItsUpstreamProtocol() throws Exception {
    assertThat(of(ProxyKind.NGINX, "nginx-stock.conf"))
        .as("nginx's default")
        .isEqualTo(HopProtocol.HTTP_1_0);
    assertThat(of(ProxyKind.NGINX, "nginx-h2.conf")).isEqualTo(HopProtocol.HTTP_1_0);
    assertThat(of(ProxyKind.NGINX, "nginx-keepalive.conf")).isEqualTo(HopProtocol.HTTP_1_1);
    assertThat(of(ProxyKind.HAPROXY, "haproxy-stock.cfg")).isEqualTo(HopProtocol.HTTP_1_1);
    assertThat(of(ProxyKind.HAPROXY, "haproxy-h2c.cfg"))
        .as("proto h2 is on its bind line, not a server")
        .isEqualTo(HopProtocol.HTTP_1_1);
    assertThat(of(ProxyKind.CADDY, "caddy-default.Caddyfile")).isEqualTo(HopProtocol.HTTP_1_1);
  }

  @Test
  void aServerLineOrATransportAskingForH2IsRead() {
    assertThat(
            ProxyKind.HAPROXY.upstreamProtocol("backend b\n  server s1 127.0.0.1:8090 proto h2\n"))
        .isEqualTo(HopProtocol.H2C);
    assertThat(
            ProxyKind.HAPROXY.upstreamProtocol(
                "backend b\n  server s1 127.0.0.1:8443 ssl verify none alpn h2 proto h2\n"))
        .isEqualTo(HopProtocol.H2);
    assertThat(
            ProxyKind.CADDY.upstreamProtocol(
                "reverse_proxy 127.0.0.1:8090 {\n  transport http {\n    versions h2c 2\n  }\n}\n"))
        .isEqualTo(HopProtocol.H2C);
    assertThat(
            ProxyKind.NGINX.upstreamProtocol(
                "location / {\n  # proxy_http_version 1.1;\n  proxy_pass http://u;\n}\n"))
        .as("a comment is not a setting")
        .isEqualTo(HopProtocol.HTTP_1_0);
  }
}
