package flushlab.report.page;

import static flushlab.report.page.Page.esc;

import com.fasterxml.jackson.databind.JsonNode;

/** The folded tables of a run's page, from results.json. */
final class Tables {
  private Tables() {}

  private static String ms(JsonNode d, String field) {
    return d.path(field).isNumber() ? String.format("%.3f", d.path(field).asDouble()) : "-";
  }

  static String summary(JsonNode r) {
    StringBuilder b =
        new StringBuilder(
            "<table><tr><th>cell</th><th>target</th><th>frames per read</th><th>head p50 ms</th><th>TTFT p50 ms</th>"
                + "<th>gap p50 ms</th><th>gap p99 ms</th><th>emit&rarr;recv p50 ms</th><th>emit&rarr;recv p99 ms</th>"
                + "<th>releases</th><th>streams ok</th><th>runs kept</th></tr>\n");
    for (JsonNode c : r.path("cells")) {
      JsonNode m = c.path("metrics");
      boolean none = m.path("streams_ok").asInt() == 0;
      b.append("<tr><td>")
          .append(esc(c.path("cell_label").asText()))
          .append("</td><td class=\"text\">")
          .append(esc(c.path("target").asText()))
          .append("</td>");
      if (none) {
        b.append("<td colspan=\"8\" class=\"text\">no measurement (")
            .append(
                c.path("runs_excluded").asInt() == c.path("runs_total").asInt()
                    ? "every run excluded"
                    : "no stream completed")
            .append(")</td>");
      } else {
        b.append("<td>")
            .append(String.format("%.2f", m.path("frames_per_read").asDouble()))
            .append("</td>")
            .append("<td>")
            .append(ms(m.path("time_to_head_ms"), "p50"))
            .append("</td>")
            .append("<td>")
            .append(ms(m.path("ttft_ms"), "p50"))
            .append("</td>")
            .append("<td>")
            .append(ms(m.path("gap_ms"), "p50"))
            .append("</td>")
            .append("<td>")
            .append(ms(m.path("gap_ms"), "p99"))
            .append("</td>")
            .append("<td>")
            .append(ms(m.path("emit_to_recv_ms"), "p50"))
            .append("</td>")
            .append("<td>")
            .append(ms(m.path("emit_to_recv_ms"), "p99"))
            .append("</td>")
            .append("<td>")
            .append(m.path("releases").asLong())
            .append("</td>");
      }
      b.append("<td>")
          .append(m.path("streams_ok").asInt())
          .append('/')
          .append(m.path("streams").asInt())
          .append("</td>")
          .append("<td>")
          .append(c.path("runs_total").asInt() - c.path("runs_excluded").asInt())
          .append('/')
          .append(c.path("runs_total").asInt())
          .append("</td></tr>\n");
    }
    return b.append("</table>").toString();
  }

  static String guards(JsonNode r) {
    JsonNode g = r.path("guards");
    StringBuilder b =
        new StringBuilder("<p>Pacing tolerance ")
            .append(g.path("pacing_tolerance_ms").asDouble())
            .append(
                " ms (a run in which the emitter was later than this for any stream is excluded); the direct path certified over ")
            .append(g.path("certify_runs").asInt())
            .append(" runs at no more than ")
            .append(g.path("certify_max_frames_per_read").asDouble())
            .append(" frames per read: ")
            .append(
                r.path("certification").path("certified").asBoolean()
                    ? "certified"
                    : "not certified")
            .append(" at ")
            .append(r.path("certification").path("direct_frames_per_read").asDouble())
            .append(".</p>\n");
    StringBuilder ex = new StringBuilder();
    for (JsonNode c : r.path("cells")) {
      for (JsonNode run : c.path("runs")) {
        if (!run.path("excluded").asBoolean()) continue;
        ex.append("<tr><td>")
            .append(esc(c.path("cell_label").asText()))
            .append("</td><td class=\"text\">")
            .append(esc(c.path("target").asText()))
            .append("</td><td>")
            .append(run.path("run").asInt())
            .append("</td><td class=\"text\">")
            .append(esc(run.path("exclusion_reason").asText()))
            .append("</td></tr>\n");
      }
    }
    if (ex.length() == 0) return b.append("<p>No run was excluded.</p>").toString();
    return b.append(
            "<table><tr><th>cell</th><th>target</th><th>run</th><th>why excluded</th></tr>\n")
        .append(ex)
        .append("</table>")
        .toString();
  }

  static String targets(JsonNode r) {
    StringBuilder b = new StringBuilder();
    for (JsonNode t : r.path("targets")) {
      b.append("<h3>")
          .append(esc(t.path("name").asText()))
          .append("</h3><p>")
          .append(esc(t.path("description").asText()))
          .append(" &middot; path ")
          .append(esc(t.path("path").asText()));
      if (t.has("address")) b.append(" &middot; ").append(esc(t.path("address").asText()));
      b.append("</p>\n");
      JsonNode p = t.path("process");
      if (!p.isMissingNode() && !p.isNull()) {
        b.append("<p>")
            .append(esc(p.path("proxy").asText()))
            .append(' ')
            .append(esc(p.path("version").asText()))
            .append("</p>\n");
        b.append("<pre>")
            .append(esc(p.path("effective_config").asText(p.path("config_text").asText())))
            .append("</pre>\n");
      }
    }
    return b.toString();
  }
}
