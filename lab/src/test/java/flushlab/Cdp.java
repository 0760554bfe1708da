package flushlab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headless Chromium driven over the DevTools protocol (the JDK's own HTTP and WebSocket clients),
 * for pages that stay connected (an EventSource keeps a page busy, so --dump-dom never settles):
 * open a page, evaluate expressions in it, take a screenshot. The browser dies with close().
 */
public final class Cdp implements AutoCloseable {
  public static final String CHROMIUM = "/usr/bin/chromium";

  private final Process browser;
  private final Path profile;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();

  /**
   * {@code command} at the lowest CPU priority (nice 19, which execs it: the process is the
   * browser's own). Chromium drawing a page takes seconds of CPU on two cores; the timing classes
   * running beside it (docs/TESTING.md) come first.
   */
  public static List<String> niced(List<String> command) {
    if (!Files.isExecutable(Path.of("/usr/bin/nice"))) return command;
    List<String> all = new ArrayList<>(List.of("/usr/bin/nice", "-n", "19"));
    all.addAll(command);
    return all;
  }

  public static boolean available() {
    return Files.isExecutable(Path.of(CHROMIUM));
  }

  public Cdp(String url) throws Exception {
    this(url, List.of());
  }

  /**
   * As above, with more of Chromium's flags (a page that must reach no network: every host resolves
   * to nothing).
   */
  public Cdp(String url, List<String> flags) throws Exception {
    profile = Files.createTempDirectory("flushlab-chromium-");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=1300,1000",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile));
    cmd.addAll(flags);
    cmd.add("about:blank");
    browser =
        new ProcessBuilder(niced(cmd)).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    int port = devtoolsPort();
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> target =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:"
                            + port
                            + "/json/new?"
                            + URLEncoder.encode(url, StandardCharsets.UTF_8)))
                .PUT(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    String ws = Json.MAPPER.readTree(target.body()).path("webSocketDebuggerUrl").asText();
    socket =
        http.newWebSocketBuilder()
            .buildAsync(
                URI.create(ws),
                new WebSocket.Listener() {
                  private final StringBuilder text = new StringBuilder();

                  @Override
                  public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                    text.append(data);
                    if (last) {
                      try {
                        JsonNode m = Json.MAPPER.readTree(text.toString());
                        CompletableFuture<JsonNode> f = waiting.remove(m.path("id").asInt(-1));
                        if (f != null) f.complete(m);
                      } catch (Exception ignored) {
                        // events we did not ask about
                      }
                      text.setLength(0);
                    }
                    w.request(1);
                    return null;
                  }
                })
            .get(10, TimeUnit.SECONDS);
  }

  /** The port from Chromium's "DevTools listening on ws://127.0.0.1:PORT/..." line. */
  private int devtoolsPort() throws Exception {
    BufferedReader err =
        new BufferedReader(new InputStreamReader(browser.getErrorStream(), StandardCharsets.UTF_8));
    Pattern p = Pattern.compile("DevTools listening on ws://[^:]+:(\\d+)/");
    long deadline = System.nanoTime() + 20_000_000_000L;
    for (String line; System.nanoTime() < deadline && (line = err.readLine()) != null; ) {
      Matcher m = p.matcher(line);
      if (m.find()) {
        Thread drain =
            new Thread(
                () -> {
                  try {
                    while (err.readLine() != null) {
                      // keep the pipe empty
                    }
                  } catch (Exception ignored) {
                    // the browser went away
                  }
                });
        drain.setDaemon(true);
        drain.start();
        return Integer.parseInt(m.group(1));
      }
    }
    throw new IllegalStateException("chromium did not say where DevTools listens");
  }

  public JsonNode call(String method, ObjectNode params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> f = new CompletableFuture<>();
    waiting.put(id, f);
    ObjectNode m = Json.MAPPER.createObjectNode().put("id", id).put("method", method);
    m.set("params", params == null ? Json.MAPPER.createObjectNode() : params);
    socket.sendText(Json.write(m), true).get(10, TimeUnit.SECONDS);
    JsonNode r = f.get(30, TimeUnit.SECONDS);
    if (r.has("error")) throw new IllegalStateException(method + ": " + r.path("error"));
    return r.path("result");
  }

  /** The value of a JavaScript expression in the page. */
  public JsonNode eval(String expression) throws Exception {
    ObjectNode p =
        Json.MAPPER.createObjectNode().put("expression", expression).put("returnByValue", true);
    return call("Runtime.evaluate", p).path("result").path("value");
  }

  /** Evaluates until the expression is true, up to the timeout; true when it became so. */
  public boolean waitFor(String expression, long timeoutMillis) throws Exception {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    while (System.nanoTime() < deadline) {
      if (eval(expression).asBoolean(false)) return true;
      Thread.sleep(50); // polling the page: there is no event to wait on from outside it
    }
    return false;
  }

  /**
   * Opens {@code url} in the page and waits (up to the timeout) until it has loaded; false when it
   * did not.
   */
  public boolean navigate(String url, long timeoutMillis) throws Exception {
    call("Page.navigate", Json.MAPPER.createObjectNode().put("url", url));
    return waitFor(
        "document.URL === " + Json.write(url) + " && document.readyState === 'complete'",
        timeoutMillis);
  }

  public byte[] screenshotPng() throws Exception {
    return Base64.getDecoder().decode(call("Page.captureScreenshot", null).path("data").asText());
  }

  @Override
  public void close() throws Exception {
    try {
      socket.abort();
    } finally {
      // the browser's helpers (zygote, renderers, GPU) first, so none writes into the profile after
      for (ProcessHandle child : browser.descendants().toList()) child.destroyForcibly();
      browser.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      for (ProcessHandle child : browser.descendants().toList())
        child.onExit().get(10, TimeUnit.SECONDS);
      deleteTree(profile);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
            Files.deleteIfExists(f);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path f, IOException e) {
            return FileVisitResult.CONTINUE; // gone already
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            Files.deleteIfExists(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
