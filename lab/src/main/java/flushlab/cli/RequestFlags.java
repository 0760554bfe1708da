package flushlab.cli;

import com.beust.jcommander.Parameter;
import flushlab.client.ClientProfile;
import flushlab.client.HttpVersion;
import flushlab.client.RequestPlan;
import flushlab.core.HostPort;
import flushlab.core.Named;
import flushlab.scenario.RequestHeaders;
import flushlab.tls.ClientTls;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a gateway needs to accept the lab's requests (client, probe and map share these): extra
 * headers (values from environment variables, never recorded), the model name, and how an https
 * server's certificate is checked.
 */
final class RequestFlags {
  @Parameter(
      names = "--header",
      splitter = Converters.WholeValue.class,
      description =
          "An extra request header 'Name: value' (repeatable); ${VAR} in the value is read from the environment, "
              + "e.g. --header 'Authorization: Bearer ${OPENAI_API_KEY}' (single quotes, so the shell leaves it). Values are never "
              + "written to results or logs")
  List<String> headers = new ArrayList<>();

  @Parameter(
      names = "--client",
      description =
          "Which client the request looks like: bare (the lab's own, no Accept-Encoding), "
              + "curl, browser (Chromium's EventSource, accepting gzip, deflate, br, zstd), openai-python or openai-node (each accepting "
              + "gzip, deflate): the headers that client sends, captured from it (docs/PROXIES.md)")
  String client = ClientProfile.DEFAULT.text();

  @Parameter(
      names = "--http",
      description =
          "Which HTTP the client speaks: auto (as its --client would: over https a browser and "
              + "curl offer h2 and http/1.1 by ALPN, the others speak HTTP/1.1), 1.1, h2 (HTTP/2 over TLS by ALPN: an https target), "
              + "h2c (HTTP/2 over plain TCP by prior knowledge: an http target) or h2c-upgrade (an HTTP/1.1 request with Upgrade: h2c; "
              + "read as HTTP/1.1 if the server does not switch)")
  String http = HttpVersion.AUTO.text();

  @Parameter(
      names = "--model",
      description = "Chat and Responses requests: the model name to ask for")
  String model = RequestPlan.DEFAULT_MODEL;

  @Parameter(
      names = "--ca-file",
      description =
          "https targets: check the server's certificate against the CAs in this PEM file "
              + "(default: the system's CAs); the host name is checked either way")
  Path caFile;

  @Parameter(
      names = "--insecure",
      description =
          "https targets: do not check the server's certificate at all (prints a warning)")
  boolean insecure;

  /** The headers, checked now (before anything starts) and resolved from {@code env}. */
  RequestHeaders resolvedHeaders(Map<String, String> env) {
    return RequestHeaders.of("--header", headers, env);
  }

  /**
   * A server given as host:port, http://host:port or https://host:port (a trailing / allowed), and
   * its TLS check.
   */
  record Server(HostPort address, ClientTls tls) {
    String describe() {
      return (tls == null ? "" : "https://") + address;
    }
  }

  /**
   * Parses {@code text} given with {@code flag}: https:// means TLS, checked as --ca-file and
   * --insecure say (which are refused for a server without it); warns on {@code err} when
   * unchecked.
   */
  Server server(String flag, String text, PrintStream err) {
    boolean https = text.startsWith("https://");
    String hostPort =
        https
            ? text.substring("https://".length())
            : text.startsWith("http://") ? text.substring("http://".length()) : text;
    if (hostPort.endsWith("/")) hostPort = hostPort.substring(0, hostPort.length() - 1);
    HostPort at = HostPort.parse(flag, hostPort, false);
    if (!https && (caFile != null || insecure)) {
      throw new IllegalArgumentException(
          (insecure ? "--insecure" : "--ca-file") + ": only with an https:// " + flag);
    }
    return new Server(at, https ? tls(err) : null);
  }

  /** The client profile --client names, or a message naming the flag and the profiles. */
  ClientProfile profile() {
    ClientProfile p = Named.parse(ClientProfile.class, client);
    if (p == null) {
      throw new IllegalArgumentException(
          "--client: '"
              + client
              + "' is not one of "
              + String.join(", ", Named.texts(ClientProfile.class)));
    }
    return p;
  }

  /** The HTTP --http names, checked against whether the target speaks TLS. */
  HttpVersion http(boolean tls) {
    HttpVersion v = Named.parse(HttpVersion.class, http);
    if (v == null)
      throw new IllegalArgumentException(
          "--http: '"
              + http
              + "' is not one of "
              + String.join(", ", Named.texts(HttpVersion.class)));
    if (v == HttpVersion.H2 && !tls)
      throw new IllegalArgumentException(
          "--http h2: HTTP/2 by ALPN needs an https:// target; for http:// use --http h2c");
    if ((v == HttpVersion.H2C || v == HttpVersion.H2C_UPGRADE) && tls) {
      throw new IllegalArgumentException(
          "--http "
              + v.text()
              + ": HTTP/2 over plain TCP needs an http:// target; for https:// use --http h2");
    }
    return v;
  }

  String model() {
    if (model == null || model.isBlank() || model.length() > 256) {
      throw new IllegalArgumentException(
          "--model: '" + model + "' (allowed: a name of 1..256 characters)");
    }
    return model;
  }

  /** How https targets are checked; warns on {@code err} when the check is off. */
  ClientTls tls(PrintStream err) {
    ClientTls t = ClientTls.fromFlags(caFile, insecure);
    if (t.mode() == ClientTls.Mode.INSECURE) err.println(ClientTls.INSECURE_WARNING);
    return t;
  }

  /** {@code plan} with these headers, and, when it is https, this certificate check. */
  RequestPlan apply(RequestPlan plan, PrintStream err) {
    RequestPlan p =
        plan.withHeaders(resolvedHeaders(System.getenv()).toSend()).withProfile(profile());
    return p.tls() == null ? p : p.withTls(tls(err));
  }
}
