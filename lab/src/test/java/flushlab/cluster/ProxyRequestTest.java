package flushlab.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.proxy.ProxyKind;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * What an agent accepts of a coordinator's request to start a proxy, before anything starts: a
 * known proxy, a bounded template that runs no program, a plain file name, an upstream; 400 for a
 * request out of bounds, 403 (and a line the agent logs) for a template it will not run.
 */
class ProxyRequestTest {
  private static JsonObject asked(String proxy, String template, String file, String upstream) {
    return new JsonObject()
        .put("run", "r1")
        .put("proxy", proxy)
        .put("template", template)
        .put("file_name", file)
        .put("upstream", upstream);
  }

  private static ProxyRequest.Refused refused(JsonObject body) {
    try {
      ProxyRequest.of(body, "b");
    } catch (ProxyRequest.Refused e) {
      return e;
    }
    throw new AssertionError("accepted: " + body);
  }

  @Test
  void aKnownProxyWithAPlainTemplateIsAccepted() throws Exception {
    ProxyRequest r =
        ProxyRequest.of(asked("nginx", "events {}\n", "nginx.conf", "127.0.0.1:8080"), "b");
    assertThat(r.kind()).isEqualTo(ProxyKind.NGINX);
    assertThat(r.fileName()).isEqualTo("nginx.conf");
    assertThat(r.upstream().port()).isEqualTo(8080);
  }

  @Test
  void aRequestOutOfBoundsIsRefused400() {
    String ok = "events {}\n";
    for (JsonObject body :
        new JsonObject[] {
          asked("nginz", ok, "nginx.conf", "127.0.0.1:8080"),
          asked("nginx", "", "nginx.conf", "127.0.0.1:8080"),
          asked(
              "nginx",
              "#".repeat(ProxyRequest.MAX_TEMPLATE_CHARS + 1),
              "nginx.conf",
              "127.0.0.1:8080"),
          asked("nginx", ok, "../etc/passwd", "127.0.0.1:8080"),
          asked("nginx", ok, "nginx.conf", "no-port")
        }) {
      ProxyRequest.Refused e = refused(body);
      assertThat(e.status()).as(body.encode().substring(0, 60)).isEqualTo(400);
      assertThat(e.getMessage()).startsWith("agent b");
      assertThat(e.logLine()).isNull();
    }
  }

  @Test
  void aTemplateThatRunsAProgramIsRefused403AndLogged() {
    ProxyRequest.Refused e =
        refused(asked("apache2", "ErrorLog \"|/bin/sh\"\n", "apache2.conf", "127.0.0.1:8080"));
    assertThat(e.status()).isEqualTo(403);
    assertThat(e.getMessage()).contains("starts no proxy from a template that runs programs");
    assertThat(e.logLine()).startsWith("refused to start apache2 for run r1");
  }
}
