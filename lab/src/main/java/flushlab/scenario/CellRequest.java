package flushlab.scenario;

import flushlab.client.RequestPlan;
import flushlab.core.HostPort;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The request a cell's settings make: a streaming chat completion, or a /sse query. */
final class CellRequest {
  private CellRequest() {}

  /**
   * @param tls how to check the target's TLS (null: plain TCP)
   * @param headers client.headers, resolved (name, value)
   */
  static RequestPlan plan(Cell cell, HostPort at, flushlab.tls.ClientTls tls, java.util.List<String[]> headers) {
    return plan(cell, at).withTls(tls).withHeaders(headers);
  }

  static RequestPlan plan(Cell cell, HostPort at) {
    String endpoint = cell.get("endpoint");
    if (endpoint.equals("chat") || endpoint.equals("responses")) {
      double thinkMs = cell.nanos("think") / 1e6;
      double intervalMs = cell.nanos("interval") / 1e6;
      String model = cell.has("model") ? cell.get("model") : RequestPlan.DEFAULT_MODEL;
      return endpoint.equals("chat")
          ? RequestPlan.chat(at.host(), at.port(), cell.integer("frames"), thinkMs, intervalMs, model)
          : RequestPlan.responses(at.host(), at.port(), cell.integer("frames"), thinkMs, intervalMs, model);
    }
    StringBuilder q = new StringBuilder("size=").append(cell.bytes("frame_size"))
        .append("&interval=").append(cell.nanos("interval")).append("ns")
        .append("&think=").append(cell.nanos("think")).append("ns")
        .append("&transfer=").append(cell.get("transfer"));
    if (cell.has("total")) {
      q.append("&total=").append(cell.bytes("total"));
    } else {
      q.append("&frames=").append(cell.integer("frames"));
    }
    if (!cell.get("x_accel_buffering").equals("absent")) {
      q.append("&header=").append(URLEncoder.encode("X-Accel-Buffering:" + cell.get("x_accel_buffering"), StandardCharsets.UTF_8));
    }
    for (Map.Entry<String, String> h : cell.headers().entrySet()) {
      q.append("&header=").append(URLEncoder.encode(h.getKey() + ":" + h.getValue(), StandardCharsets.UTF_8));
    }
    return RequestPlan.get("http://" + at + "/sse?" + q);
  }
}
