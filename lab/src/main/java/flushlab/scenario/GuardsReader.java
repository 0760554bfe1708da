package flushlab.scenario;

import flushlab.client.ClientOptions;
import flushlab.client.HttpVersion;
import flushlab.core.Units;
import flushlab.stream.StreamSpec;

/**
 * The guards: the pacing tolerance, and the certification (its runs, its ceiling, and the stream it
 * measures: by default 41 x 60 B every 50 ms, whatever the scenario's own stream is, because a
 * slow-client or bulk stream is not meant to read 1.0 on the direct path).
 */
final class GuardsReader {
  final Scenario.Guards guards;

  GuardsReader(YamlNode root, Cell base, ErrorCollector errors) {
    YamlNode g = root.map.get(Keys.GUARDS_SECTION.name());
    YamlNode empty = YamlNode.emptyMap();
    if (g == null || !errors.isMap(g, "guards")) g = empty;
    errors.onlyKnown(g, "guards.", Keys.names(Key.Section.GUARDS));
    long tolerance = Units.parseDurationNanos(errors.value(g, GuardKeys.PACING_TOLERANCE));
    YamlNode c = g.map.get(GuardKeys.CERTIFY_SECTION.name());
    if (c == null || !errors.isMap(c, "guards.certify")) c = empty;
    errors.onlyKnown(c, "guards.certify.", Keys.names(Key.Section.CERTIFY));
    int runs = Integer.parseInt(errors.value(c, GuardKeys.CERTIFY_RUNS));
    double ceiling = Double.parseDouble(errors.value(c, GuardKeys.CERTIFY_CEILING));
    StreamSpec stream =
        StreamSpec.DEFAULT
            .withXAccelBuffering(base.stream().xAccelBuffering())
            .withFrames(Integer.parseInt(errors.value(c, GuardKeys.CERTIFY_FRAMES)))
            .withFrameBytes((int) Units.parseBytes(errors.value(c, GuardKeys.CERTIFY_FRAME_SIZE)))
            .withIntervalNanos(
                Units.parseDurationNanos(errors.value(c, GuardKeys.CERTIFY_INTERVAL)));
    // the direct path is certified over HTTP/1.1, the instrument's own floor, whatever the
    // scenario's client speaks to
    // its targets (an h2 client cannot reach the plain emitter by ALPN, and the floor must not move
    // with the protocol)
    ClientOptions client =
        base.client()
            .withSlowReaderPauseNanos(0)
            .withRequests(1, 1)
            .withHttp(HttpVersion.HTTP_1_1)
            .withStreamsPerConnection(1);
    guards =
        new Scenario.Guards(
            tolerance, runs, ceiling, base.withIndex(-1).withStream(stream).withClient(client));
  }
}
