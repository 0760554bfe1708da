package flushlab.scenario;

import flushlab.client.ClientProfile;
import flushlab.client.HttpVersion;
import flushlab.client.RequestPlan;
import flushlab.core.HostPort;
import flushlab.netpath.NetworkPath;
import flushlab.stream.Endpoint;
import flushlab.stream.ResponseShape;
import flushlab.stream.StreamSpec;
import flushlab.targets.Target;
import java.nio.file.Path;
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

  public static Scenario of(
      Target target, Endpoint endpoint, HostPort emitterListen, String commandLine) {
    return of(
        target,
        endpoint,
        emitterListen,
        commandLine,
        RequestPlan.DEFAULT_MODEL,
        RequestHeaders.none(),
        ClientProfile.DEFAULT);
  }

  /**
   * With the model chat requests name and the headers every request carries (--model, --header).
   */
  public static Scenario of(
      Target target,
      Endpoint endpoint,
      HostPort emitterListen,
      String commandLine,
      String model,
      RequestHeaders headers,
      ClientProfile profile) {
    return of(
        target, endpoint, emitterListen, commandLine, model, headers, profile, HttpVersion.AUTO);
  }

  /**
   * The same, the target read over {@code http} (the direct path is certified over HTTP/1.1, the
   * instrument's own floor).
   */
  public static Scenario of(
      Target target,
      Endpoint endpoint,
      HostPort emitterListen,
      String commandLine,
      String model,
      RequestHeaders headers,
      ClientProfile profile,
      HttpVersion http) {
    return of(
        target,
        endpoint,
        emitterListen,
        commandLine,
        model,
        headers,
        profile,
        http,
        ResponseShape.EVENT_STREAM);
  }

  /**
   * The same, every measured response of this shape (--response); the direct path is certified with
   * an event stream.
   */
  public static Scenario of(
      Target target,
      Endpoint endpoint,
      HostPort emitterListen,
      String commandLine,
      String model,
      RequestHeaders headers,
      ClientProfile profile,
      HttpVersion http,
      ResponseShape response) {
    Cell plain =
        Cell.DEFAULTS
            .withStream(StreamSpec.DEFAULT.withEndpoint(endpoint))
            .withModel(SettingKeys.MODEL.check(model))
            .withProfile(profile);
    Cell base =
        plain
            .withClient(plain.client().withHttp(http))
            .withStream(response.applyTo(plain.stream()));
    Cell cert = plain.withIndex(-1).withStream(StreamSpec.DEFAULT.withIntervalNanos(10_000_000L));
    Scenario.Guards guards = new Scenario.Guards(20_000_000L, 2, 1.10, cert);
    String name = ("map-" + target.name()).replaceAll("[^A-Za-z0-9._-]", "_");
    return new Scenario(
        name.length() > 64 ? name.substring(0, 64) : name,
        "flushlab map of " + target.describe(),
        Path.of("(flushlab map)"),
        commandLine,
        new Scenario.Resolved(base.settingsByName(), Map.of(), Map.of(), 1, headers.redacted()),
        List.of(base),
        List.of(),
        List.of(target),
        1,
        guards,
        true,
        null,
        emitterListen,
        target.path().kind() == NetworkPath.Kind.HOST_ROUTE ? NetworkPath.LOOPBACK : target.path(),
        headers,
        null,
        Expectations.NONE);
  }
}
