package flushlab.scenario;

import flushlab.relay.shaper.ShaperRegistry;
import java.util.List;

/**
 * Something a scenario measures: the direct path, a built-in relay (a shaper chain the lab starts
 * in front of its emitter), or an external server the lab did not start, which must be marked
 * {@code external: true} with a reason (recorded in the results).
 */
public record TargetSpec(String name, Kind kind, List<ShaperRegistry.Spec> shapers, boolean poolUpstream,
    String host, int port, String reason) {

  public enum Kind { DIRECT, RELAY, EXTERNAL }

  public String describe() {
    switch (kind) {
      case DIRECT: return "direct (no proxy)";
      case RELAY: {
        StringBuilder sb = new StringBuilder("relay ");
        for (int i = 0; i < shapers.size(); i++) sb.append(i == 0 ? "" : " -> ").append(shapers.get(i).text());
        if (shapers.isEmpty()) sb.append("passthrough");
        return sb + (poolUpstream ? " (pooled upstream)" : "");
      }
      default: return "external " + host + ":" + port + " (" + reason + ")";
    }
  }
}
