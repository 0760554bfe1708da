package flushlab.scenario;

import flushlab.core.Units;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The guards: the pacing tolerance, and the certification (its runs, its ceiling, and the stream
 * it measures: by default 41 x 60 B every 50 ms, whatever the scenario's own stream is, because a
 * slow-client or bulk stream is not meant to read 1.0 on the direct path).
 */
final class GuardsReader {
  final Scenario.Guards guards;

  GuardsReader(YamlNode root, Map<String, String> base, ErrorCollector errors) {
    YamlNode g = root.map.get(Keys.GUARDS_SECTION.name());
    YamlNode empty = YamlNode.emptyMap();
    if (g == null || !errors.isMap(g, "guards")) g = empty;
    errors.onlyKnown(g, "guards.", Keys.names(Key.Section.GUARDS));
    long tolerance = Units.parseDurationNanos(errors.value(g, Keys.PACING_TOLERANCE));
    YamlNode c = g.map.get(Keys.CERTIFY_SECTION.name());
    if (c == null || !errors.isMap(c, "guards.certify")) c = empty;
    errors.onlyKnown(c, "guards.certify.", Keys.names(Key.Section.CERTIFY));
    int runs = Integer.parseInt(errors.value(c, Keys.CERTIFY_RUNS));
    double ceiling = Double.parseDouble(errors.value(c, Keys.CERTIFY_CEILING));
    Map<String, String> cert = new LinkedHashMap<>(base);
    cert.put("endpoint", "sse");
    cert.put("think", "0ms");
    cert.put("transfer", "chunked");
    cert.remove("total");
    cert.put("slow_reader", "0ms");
    cert.put("requests", "1");
    cert.put("concurrency", "1");
    cert.put("frames", errors.value(c, Keys.CERTIFY_FRAMES));
    cert.put("frame_size", errors.value(c, Keys.CERTIFY_FRAME_SIZE));
    cert.put("interval", errors.value(c, Keys.CERTIFY_INTERVAL));
    guards = new Scenario.Guards(tolerance, runs, ceiling, new Cell(-1, Map.of(), cert, Map.of()));
  }
}
