package flushlab.cluster;

import flushlab.core.HostPort;
import flushlab.proxy.ProxyKind;
import flushlab.proxy.TemplateVetting;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A coordinator's request that an agent start a real proxy, checked before anything starts: a proxy
 * the lab knows, a template of bounded size that runs no program and loads no code ({@link
 * TemplateVetting}), a plain file name, an upstream address. What fails is refused with the status
 * the agent answers: 400 for a request out of bounds, 403 for a template it will not run.
 *
 * @param kind the proxy
 * @param template the template's text (the coordinator's file does not exist on the agent)
 * @param fileName the name its config file gets
 * @param upstream where the proxy forwards
 */
record ProxyRequest(ProxyKind kind, String template, String fileName, HostPort upstream) {

  /** The longest proxy template a coordinator may send (a scenario's template cap). */
  static final int MAX_TEMPLATE_CHARS = 256 * 1024;

  /** A request the agent refuses: its status, its message, and for a template a line to log. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String logLine;

    Refused(int status, String message, String logLine) {
      super(message);
      this.status = status;
      this.logLine = logLine;
    }

    int status() {
      return status;
    }

    /** What the agent logs of a refused template; null for a request merely out of bounds. */
    String logLine() {
      return logLine;
    }
  }

  /** The request {@code body} asks agent {@code agent} for, or why it is refused. */
  static ProxyRequest of(JsonObject body, String agent) throws Refused {
    ProxyKind kind = ProxyKind.of(body.getString("proxy", ""));
    String template = body.getString("template", "");
    String fileName = body.getString("file_name", "proxy.conf");
    HostPort upstream;
    try {
      upstream = HostPort.parse("upstream", body.getString("upstream", ""), false);
    } catch (RuntimeException e) {
      throw new Refused(400, "agent " + agent + ": a proxy's upstream: " + e.getMessage(), null);
    }
    if (kind == null
        || template.isEmpty()
        || template.length() > MAX_TEMPLATE_CHARS
        || !fileName.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new Refused(
          400,
          "agent "
              + agent
              + ": a proxy request names a known proxy, a template of 1.."
              + MAX_TEMPLATE_CHARS
              + " characters and a plain file name",
          null);
    }
    List<String> refused = TemplateVetting.problems(kind, template);
    if (!refused.isEmpty()) {
      throw new Refused(
          403,
          "agent "
              + agent
              + " starts no proxy from a template that runs programs or loads code: "
              + String.join("; ", refused),
          "refused to start "
              + kind.text()
              + " for run "
              + body.getString("run", "")
              + ": its template runs programs or loads code: "
              + String.join("; ", refused));
    }
    return new ProxyRequest(kind, template, fileName, upstream);
  }
}
