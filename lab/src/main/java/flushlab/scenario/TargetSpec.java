package flushlab.scenario;

import flushlab.relay.shaper.ShaperRegistry;
import flushlab.proxy.ProxyKind;
import java.nio.file.Path;
import java.util.List;

/**
 * Something a scenario measures: the direct path, a built-in relay (a shaper chain the lab starts
 * in front of its emitter), a real proxy process the lab starts from a config template, or an
 * external server the lab did not start, which must be marked {@code external: true} with a
 * reason (recorded in the results).
 */
public record TargetSpec(String name, Kind kind, List<ShaperRegistry.Spec> shapers, boolean poolUpstream,
    String host, int port, String reason, ProxyKind proxy, Path config) {

  public enum Kind { DIRECT, RELAY, EXTERNAL, PROCESS }

  public static TargetSpec direct(String name) {
    return new TargetSpec(name, Kind.DIRECT, List.of(), false, null, 0, null, null, null);
  }

  public String describe() {
    switch (kind) {
      case DIRECT: return "direct (no proxy)";
      case RELAY: {
        StringBuilder sb = new StringBuilder("relay ");
        for (int i = 0; i < shapers.size(); i++) sb.append(i == 0 ? "" : " -> ").append(shapers.get(i).text());
        if (shapers.isEmpty()) sb.append("passthrough");
        return sb + (poolUpstream ? " (pooled upstream)" : "");
      }
      case PROCESS: return proxy.binaryName + " started by the lab from " + config;
      default: return "external " + host + ":" + port + " (" + reason + ")";
    }
  }
}
