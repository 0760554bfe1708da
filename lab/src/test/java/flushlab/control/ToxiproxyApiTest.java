package flushlab.control;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import flushlab.HostStalls;
import flushlab.LabFixture;
import flushlab.Timing;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.RequestPlan;
import flushlab.core.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The control API driven by Toxiproxy's own Java client, and the lab's client measuring what each
 * toxic does.
 */
class ToxiproxyApiTest {

  record Answer(int status, JsonNode body) {}

  /** A request to the control API; the answer's body read as JSON when it says it is JSON. */
  /**
   * One client for every request, as a harness has: a client per request kept each connection open
   * until collected.
   */
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  static Answer http(String method, int port, String path, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    boolean json = r.headers().firstValue("Content-Type").orElse("").startsWith("application/json");
    return new Answer(r.statusCode(), json ? Json.MAPPER.readTree(r.body()) : null);
  }

  private static String url(Proxy p, String query) {
    return "http://" + p.getListen() + "/sse?" + query;
  }

  @Test
  void toxiproxysClientDrivesTheLabsRelaysAndTheMeteredClientSeesEachToxic() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      ControlServer control = new ControlServer("127.0.0.1", 0, line -> {});
      lab.vertx.deployVerticle(control).await(10, TimeUnit.SECONDS);
      ToxiproxyClient client = new ToxiproxyClient("127.0.0.1", control.port());
      assertThat(client.version()).contains("flushlab");
      Proxy proxy = client.createProxy("emitter", "127.0.0.1:0", "127.0.0.1:" + lab.emitter.port());
      assertThat(proxy.getListen()).matches("127\\.0\\.0\\.1:[1-9]\\d*");
      assertThat(client.getProxies()).extracting(Proxy::getName).containsExactly("emitter");
      String stream = "frames=20&size=60&interval=10ms";

      BatchResult clean =
          lab.measurePaced(
              10_000_000L, RequestPlan.get(url(proxy, stream)), ClientOptions.single());
      assertThat(clean.errorCount()).isZero();
      assertThat(clean.framesPerRead()).isLessThan(1.2);

      // Toxiproxy's latency toxic: the first token comes ~100 ms later
      proxy.toxics().latency("slow", ToxicDirection.DOWNSTREAM, 100);
      BatchResult slow = lab.measure(url(proxy, stream));
      assertThat(slow.errorCount()).isZero();
      // at least the toxic's 100 ms (a timer never fires early; the clock starts before the request
      // leaves), and not much more than the clean path's own: held against the clean run's time
      // to first token below as well, a clean run this host slowed by 11 ms made 100 ms look like
      // 88.7 (a fresh clone's suite, s148)
      // once (a suite run of 2026-12-06) the first token came in 3.7 ms: what the stream and the
      // API showed is kept in the message, to tell a toxic left out of a connection's chain from a
      // stream that reached another listener
      assertThat(slow.ttftMs().p50())
          .as(
              "time to first token through 100 ms, ms (head after %.1f ms, emit->recv p50 %.1f ms,"
                  + " %d frames; the proxy's toxics: %s)",
              slow.timeToHeadMs().p50(),
              slow.emitToRecvMs().p50(),
              slow.frames(),
              client.getProxy("emitter").toxics().getAll().stream()
                  .map(t -> t.getName() + " " + t.getStream())
                  .toList())
          .isGreaterThanOrEqualTo(99.0);
      assertThat(slow.ttftMs().p50() - clean.ttftMs().p50())
          .as("added time to first token, ms")
          .isLessThan(200.0);
      proxy.toxics().get("slow").remove();

      // the request direction: latency upstream holds the request, so the first token comes later
      // too
      proxy.toxics().latency("slow-request", ToxicDirection.UPSTREAM, 100);
      long slowRequestFrom = System.nanoTime();
      BatchResult slowRequest = lab.measure(url(proxy, stream));
      long slowRequestTo = System.nanoTime();
      assertThat(slowRequest.errorCount()).isZero();
      assertThat(slowRequest.ttftMs().p50())
          .as("time to first token with the request held 100 ms, ms")
          .isGreaterThanOrEqualTo(99.0);
      assertThat(slowRequest.ttftMs().p50() - clean.ttftMs().p50())
          .as("added by upstream latency, ms")
          .isLessThan(200.0);
      double notDelayedBound =
          clean.emitToRecvMs().p50() + Timing.SLACK_FLOOR_MS + 3 * clean.emitToRecvMs().p99();
      // a response this host stood still through is late by the host (s260: 13.1 ms against
      // 12.1, a suite with 24 host-stall skips)
      if (slowRequest.emitToRecvMs().p50() >= notDelayedBound)
        HostStalls.skipIfBusy(slowRequestFrom, slowRequestTo, slowRequest.oneLine());
      assertThat(slowRequest.emitToRecvMs().p50())
          .as("the response itself is not delayed")
          .isLessThan(notDelayedBound);
      proxy.toxics().get("slow-request").remove();

      // a lab buffering mechanism as a further toxic type (the typed client has no method for it:
      // plain HTTP)
      Answer added =
          http(
              "POST",
              control.port(),
              "/proxies/emitter/toxics",
              "{\"name\":\"buffer\",\"type\":\"byte-threshold\",\"attributes\":{\"bytes\":\"1KiB\"}}");
      assertThat(added.status()).isEqualTo(200);
      Answer listed = http("GET", control.port(), "/proxies/emitter/toxics", null);
      assertThat(listed.body()).hasSize(1);
      assertThat(listed.body().get(0).path("type").asText()).isEqualTo("byte-threshold");
      BatchResult held = lab.measure(url(proxy, stream));
      assertThat(held.errorCount()).isZero();
      assertThat(held.framesPerRead())
          .as("frames per read behind a 1 KiB threshold")
          .isGreaterThan(8);

      // removed: back to the direct path's figures
      assertThat(http("DELETE", control.port(), "/proxies/emitter/toxics/buffer", null).status())
          .isEqualTo(204);
      BatchResult again =
          lab.measurePaced(
              10_000_000L, RequestPlan.get(url(proxy, stream)), ClientOptions.single());
      assertThat(again.framesPerRead()).isLessThan(1.2);
      assertThat(again.ttftMs().p50()).isLessThan(clean.ttftMs().p50() + 50);

      // a compressing proxy as a toxic: never flushed, it holds the stream for a browser and passes
      // it to the lab's bare client
      assertThat(
              http(
                      "POST",
                      control.port(),
                      "/proxies/emitter/toxics",
                      "{\"name\":\"gzip\",\"type\":\"compress\",\"attributes\":{\"algo\":\"gzip\",\"flush\":\"none\"}}")
                  .status())
          .isEqualTo(200);
      BatchResult browser =
          lab.measure(
              RequestPlan.get(url(proxy, stream)).withProfile(ClientProfile.BROWSER),
              ClientOptions.single());
      assertThat(browser.errorCount()).isZero();
      assertThat(browser.contentCodings()).isEqualTo(Map.of("gzip", 1));
      assertThat(browser.framesPerRead())
          .as("a browser behind a never-flushed gzip")
          .isGreaterThan(8);
      assertThat(lab.measure(url(proxy, stream)).contentCodings()).isEqualTo(Map.of("identity", 1));
      assertThat(http("DELETE", control.port(), "/proxies/emitter/toxics/gzip", null).status())
          .isEqualTo(204);

      // disabled: nothing listens; enabled again: it streams
      proxy.disable();
      assertThat(client.getProxy("emitter").isEnabled()).isFalse();
      assertThat(lab.measure(url(proxy, stream)).errorCount()).isEqualTo(1);
      proxy.enable();
      Proxy back = client.getProxy("emitter");
      assertThat(lab.measure(url(back, stream)).errorCount()).isZero();

      client.reset();
      proxy.delete();
      assertThat(client.getProxies()).isEmpty();
    }
  }

  @Test
  void aToxicityOfZeroNeverAppliesAndOneAlwaysDoes() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      ControlServer control = new ControlServer("127.0.0.1", 0, line -> {});
      lab.vertx.deployVerticle(control).await(10, TimeUnit.SECONDS);
      ToxiproxyClient client = new ToxiproxyClient("127.0.0.1", control.port());
      Proxy proxy = client.createProxy("p", "127.0.0.1:0", "127.0.0.1:" + lab.emitter.port());
      http(
          "POST",
          control.port(),
          "/proxies/p/toxics",
          "{\"name\":\"never\",\"type\":\"drain-and-flush\",\"toxicity\":0}");
      BatchResult none = lab.measure(url(proxy, "frames=20&size=60&interval=10ms"));
      // drain-and-flush would land all 20 frames in one read; a cold relay may merge a few
      assertThat(none.framesPerRead()).isLessThan(3);
      http("POST", control.port(), "/proxies/p/toxics/never", "{\"toxicity\":1}");
      BatchResult all = lab.measure(url(proxy, "frames=20&size=60&interval=10ms"));
      assertThat(all.framesPerRead()).isEqualTo(20.0);
    }
  }

  @Test
  void errorsAnswerAsToxiproxyDoes() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      ControlServer control = new ControlServer("127.0.0.1", 0, line -> {});
      lab.vertx.deployVerticle(control).await(10, TimeUnit.SECONDS);
      int port = control.port();
      Answer missing = http("GET", port, "/proxies/nope", null);
      assertThat(missing.status()).isEqualTo(404);
      assertThat(missing.body().path("error").asText()).isEqualTo("proxy not found");
      assertThat(missing.body().path("status").asInt()).isEqualTo(404);
      String create =
          "{\"name\":\"a\",\"listen\":\"127.0.0.1:0\",\"upstream\":\"127.0.0.1:"
              + lab.emitter.port()
              + "\"}";
      assertThat(http("POST", port, "/proxies", create).status()).isEqualTo(201);
      assertThat(http("POST", port, "/proxies", create).status()).isEqualTo(409);
      Answer badType = http("POST", port, "/proxies/a/toxics", "{\"type\":\"gremlin\"}");
      assertThat(badType.status()).isEqualTo(400);
      assertThat(badType.body().path("error").asText())
          .contains("gremlin", "latency", "byte-threshold");
      Answer badAttr =
          http(
              "POST",
              port,
              "/proxies/a/toxics",
              "{\"type\":\"byte-threshold\",\"attributes\":{\"bytes\":\"lots\"}}");
      assertThat(badAttr.status()).isEqualTo(400);
      assertThat(badAttr.body().path("error").asText()).contains("bytes");
      assertThat(
              http(
                      "POST",
                      port,
                      "/proxies/a/toxics",
                      "{\"type\":\"latency\",\"stream\":\"sideways\"}")
                  .status())
          .isEqualTo(400);
      Answer upstreamBuffer =
          http("POST", port, "/proxies/a/toxics", "{\"type\":\"cork\",\"stream\":\"upstream\"}");
      assertThat(upstreamBuffer.status()).isEqualTo(400);
      assertThat(upstreamBuffer.body().path("error").asText()).contains("upstream", "latency");
      assertThat(http("GET", port, "/proxies/a/toxics/none", null).status()).isEqualTo(404);
      assertThat(http("POST", port, "/proxies", "not json").status()).isEqualTo(400);
    }
  }
}
