package flushlab.scenario;

import flushlab.client.HeaderSpec;
import flushlab.http.Header;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A scenario's client.headers: the values to send (environment variables already read), and where
 * each value stands in the scenario text, so the copy of the text kept with the results can show
 * {@link HeaderSpec#REDACTED} there instead. Never printed: toString names headers only.
 */
public final class RequestHeaders {
  private final List<HeaderSpec> specs = new ArrayList<>();
  private final List<Header> resolved = new ArrayList<>();
  private final List<YamlNode> valueNodes = new ArrayList<>();

  void add(HeaderSpec spec, String value, YamlNode valueNode) {
    specs.add(spec);
    resolved.add(new Header(spec.name(), value));
    valueNodes.add(valueNode);
  }

  /**
   * From --header flags: resolved from {@code env} now, so a variable not set stops the command
   * before it starts.
   */
  public static RequestHeaders of(String flag, List<String> typed, Map<String, String> env) {
    if (typed.size() > HeaderSpec.MAX_HEADERS) {
      throw new IllegalArgumentException(
          flag
              + ": "
              + typed.size()
              + " headers (allowed: at most "
              + HeaderSpec.MAX_HEADERS
              + ")");
    }
    RequestHeaders h = new RequestHeaders();
    for (String t : typed) {
      HeaderSpec spec = HeaderSpec.parse(flag, t);
      h.specs.add(spec);
      h.resolved.add(new Header(spec.name(), spec.resolve(flag, env)));
    }
    return h;
  }

  public static RequestHeaders none() {
    return new RequestHeaders();
  }

  /** The fields to send, in the scenario's order. */
  public List<Header> toSend() {
    return List.copyOf(resolved);
  }

  /** "Name: <redacted>" for each, as results record them. */
  public List<String> redacted() {
    return specs.stream().map(HeaderSpec::redacted).toList();
  }

  /** The scenario text with each header value replaced by {@link HeaderSpec#REDACTED}. */
  String redact(String text) {
    if (valueNodes.isEmpty()) return text;
    String[] lines = text.split("\n", -1);
    for (YamlNode n : valueNodes) {
      int li = n.line - 1;
      if (li < 0 || li >= lines.length) continue;
      String line = lines[li];
      int start = Math.min(Math.max(0, n.column - 1), line.length());
      int end = scalarEnd(line, start);
      lines[li] = line.substring(0, start) + HeaderSpec.REDACTED + line.substring(end);
    }
    String out = String.join("\n", lines);
    // a safety net for a value the positions missed (a block scalar, an unusual layout)
    for (int i = 0; i < specs.size(); i++) {
      for (String secret : new String[] {specs.get(i).template(), resolved.get(i).value()}) {
        if (secret.length() >= 4) out = out.replace(secret, HeaderSpec.REDACTED);
      }
    }
    return out;
  }

  /**
   * Where a YAML scalar starting at {@code start} ends on its line: its closing quote, or a flow
   * delimiter, a comment or the end.
   */
  private static int scalarEnd(String line, int start) {
    if (start < line.length() && (line.charAt(start) == '"' || line.charAt(start) == '\'')) {
      char q = line.charAt(start);
      for (int i = start + 1; i < line.length(); i++) {
        if (line.charAt(i) == '\\' && q == '"') {
          i++;
        } else if (line.charAt(i) == q) {
          if (q == '\'' && i + 1 < line.length() && line.charAt(i + 1) == '\'') {
            i++;
          } else {
            return i + 1;
          }
        }
      }
      return line.length();
    }
    for (int i = start; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == ',' || c == '}' || (c == '#' && i > 0 && line.charAt(i - 1) == ' ')) return i;
    }
    return line.length();
  }

  @Override
  public String toString() {
    return "RequestHeaders" + redacted();
  }
}
