package flushlab.scenario;

import flushlab.core.HostPort;
import flushlab.target.Target;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scenario `flushlab map` runs without a YAML file: one target, the default settings (chat or
 * plain SSE), one run per cell (the map chooses its cells as it goes), a 20 ms pacing guard (the
 * map reads waits from the emit time stamped in each frame, so a late emitter cannot fake a hold),
 * and a short certification stream (41 frames every 10 ms, twice).
 */
public final class MapScenario {
  private MapScenario() {}

  public static Scenario of(Target target, String endpoint, HostPort emitterListen, String commandLine) {
    return of(target, endpoint, emitterListen, commandLine, flushlab.client.RequestPlan.DEFAULT_MODEL, RequestHeaders.none());
  }

  /** With the model chat requests name and the headers every request carries (--model, --header). */
  public static Scenario of(Target target, String endpoint, HostPort emitterListen, String commandLine, String model,
      RequestHeaders headers) {
    Map<String, String> base = new LinkedHashMap<>();
    for (Key k : Keys.settings()) if (k.defaultValue() != null) base.put(k.name(), k.defaultValue());
    base.put("endpoint", Keys.ENDPOINT.check(endpoint));
    base.put("model", Keys.MODEL.check(model));
    Map<String, String> cert = new LinkedHashMap<>(base);
    cert.put("endpoint", "sse");
    cert.put("interval", "10ms");
    Scenario.Guards guards = new Scenario.Guards(20_000_000L, 2, 1.10, new Cell(-1, Map.of(), cert, Map.of()));
    String name = ("map-" + target.name()).replaceAll("[^A-Za-z0-9._-]", "_");
    return new Scenario(name.length() > 64 ? name.substring(0, 64) : name, "flushlab map of " + target.describe(),
        Path.of("(flushlab map)"), commandLine, new Scenario.Resolved(base, Map.of(), Map.of(), 1, headers.redacted()),
        List.of(new Cell(0, Map.of(), base, Map.of())), List.of(), List.of(target), 1, guards, true, null, emitterListen,
        target.path().kind() == flushlab.netpath.NetworkPath.Kind.HOST_ROUTE ? flushlab.netpath.NetworkPath.LOOPBACK : target.path(),
        headers);
  }
}
