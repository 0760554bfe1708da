package flushlab.control;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.Json;
import flushlab.relay.ConnectionPlan;
import flushlab.relay.Relay;
import flushlab.relay.shaper.ShaperRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One named proxy of the control API: a lab relay from {@code listen} to {@code upstream}, running
 * while enabled, and its toxics in the order they were added. The toxics are kept as an immutable
 * list swapped whole on every change, because the relay reads them on its own loop for each new
 * connection: a change applies to the next connection, never to one in flight.
 */
final class LabProxy {
  final String name;
  String listen;
  String upstream;
  boolean enabled;
  Relay relay;
  String deployment;
  private final Map<String, Toxic> toxics = new LinkedHashMap<>();
  private volatile List<Toxic> snapshot = List.of();

  LabProxy(String name, String listen, String upstream, boolean enabled) {
    this.name = name;
    this.listen = listen;
    this.upstream = upstream;
    this.enabled = enabled;
  }

  Toxic toxic(String toxicName) {
    return toxics.get(toxicName);
  }

  List<Toxic> toxics() {
    return snapshot;
  }

  void putToxic(Toxic t) {
    toxics.put(t.name(), t);
    snapshot = List.copyOf(toxics.values());
  }

  boolean removeToxic(String toxicName) {
    boolean had = toxics.remove(toxicName) != null;
    snapshot = List.copyOf(toxics.values());
    return had;
  }

  void clearToxics() {
    toxics.clear();
    snapshot = List.of();
  }

  /** The plan for one new connection: each toxic in order, kept with its toxicity's probability. */
  ConnectionPlan planForNewConnection() {
    List<ShaperRegistry.Spec> chain = new ArrayList<>();
    long requestDelay = 0;
    for (Toxic t : snapshot) {
      if (t.toxicity() >= 1 || ThreadLocalRandom.current().nextDouble() < t.toxicity()) {
        chain.addAll(t.shapers());
        requestDelay += t.requestDelayNanos();
      }
    }
    return new ConnectionPlan(chain, requestDelay);
  }

  ObjectNode json() {
    ObjectNode o =
        Json.MAPPER
            .createObjectNode()
            .put("name", name)
            .put("listen", listen)
            .put("upstream", upstream)
            .put("enabled", enabled);
    ArrayNode list = o.putArray("toxics");
    for (Toxic t : snapshot) list.add(t.json());
    return o;
  }
}
