package flushlab.scenario;

import flushlab.client.ClientProfile;
import flushlab.client.HttpVersion;
import flushlab.coding.ContentCoding;
import flushlab.coding.FlushPolicy;
import flushlab.core.Named;
import flushlab.core.Units;
import flushlab.stream.CacheControl;
import flushlab.stream.Endpoint;
import flushlab.stream.MediaTypes;
import flushlab.stream.RequestMethod;
import flushlab.stream.Transfer;
import flushlab.stream.XAccelBuffering;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The emitter and client settings a cell carries and a sweep may vary: each sets its typed value on
 * a {@link Cell} from the text its {@link Key} checked, and shows it again. The key holds what the
 * reference says of it (range, default, meaning); this holds where its value lives. The constructor
 * takes both directions, so a new setting does not compile until it says each.
 */
public enum Setting {
  ENDPOINT(
      SettingKeys.ENDPOINT,
      (c, v) -> c.withStream(c.stream().withEndpoint(Endpoint.named(v))),
      c -> c.stream().endpoint().text()),
  FRAMES(
      SettingKeys.FRAMES,
      (c, v) -> c.withStream(c.stream().withFrames(Integer.parseInt(v))),
      c -> Integer.toString(c.stream().frames())),
  FRAME_SIZE(
      SettingKeys.FRAME_SIZE,
      (c, v) -> c.withStream(c.stream().withFrameBytes((int) Units.parseBytes(v))),
      c -> c.stream().frameBytes() + "B"),
  INTERVAL(
      SettingKeys.INTERVAL,
      (c, v) -> c.withStream(c.stream().withIntervalNanos(Units.parseDurationNanos(v))),
      c -> Units.formatDuration(c.stream().intervalNanos())),
  THINK(
      SettingKeys.THINK,
      (c, v) -> c.withStream(c.stream().withThinkNanos(Units.parseDurationNanos(v))),
      c -> Units.formatDuration(c.stream().thinkNanos())),
  TRANSFER(
      SettingKeys.TRANSFER,
      (c, v) -> c.withStream(c.stream().withTransfer(Transfer.named(v))),
      c -> c.stream().transfer().text()),
  /** Bulk mode; shown only when set. */
  TOTAL(
      SettingKeys.TOTAL,
      (c, v) -> c.withStream(c.stream().withTotalBytes(Units.parseBytes(v))),
      c -> c.stream().bulk() ? c.stream().totalBytes() + "B" : null),
  METHOD(
      SettingKeys.METHOD,
      (c, v) -> c.withStream(c.stream().withMethod(Named.parseOrThrow(RequestMethod.class, v))),
      c -> c.stream().method().text()),
  SSE_KEEPALIVE(
      SettingKeys.SSE_KEEPALIVE,
      (c, v) -> c.withStream(c.stream().withKeepAliveNanos(Units.parseDurationNanos(v))),
      c -> Units.formatDuration(c.stream().keepAliveNanos())),
  CONTENT_TYPE(
      SettingKeys.CONTENT_TYPE,
      (c, v) -> {
        if (!MediaTypes.validContentType(v)) {
          throw new IllegalArgumentException(
              "'"
                  + v
                  + "' is not a media type (allowed: type/subtype with optional ; name=value "
                  + "parameters, at most "
                  + MediaTypes.MAX_CONTENT_TYPE_CHARS
                  + " characters, e.g. text/event-stream; charset=utf-8)");
        }
        return c.withStream(c.stream().withContentType(v));
      },
      c -> c.stream().contentType()),
  X_ACCEL_BUFFERING(
      SettingKeys.X_ACCEL_BUFFERING,
      (c, v) -> c.withStream(c.stream().withXAccelBuffering(XAccelBuffering.named(v))),
      c -> c.stream().xAccelBuffering().text()),
  ENCODING(
      SettingKeys.ENCODING,
      (c, v) ->
          c.withStream(
              c.stream()
                  .withCompression(
                      c.stream()
                          .compression()
                          .withCoding(
                              v.equals("identity") ? null : Named.parse(ContentCoding.class, v)))),
      c ->
          c.stream().compression().coding() == null
              ? "identity"
              : c.stream().compression().coding().text()),
  FLUSH(
      SettingKeys.FLUSH,
      (c, v) ->
          c.withStream(
              c.stream().withCompression(c.stream().compression().withFlush(FlushPolicy.parse(v)))),
      c -> c.stream().compression().flush().text()),
  CACHE_CONTROL(
      SettingKeys.CACHE_CONTROL,
      (c, v) ->
          c.withStream(
              c.stream()
                  .withCompression(
                      c.stream().compression().withCacheControl(CacheControl.named(v)))),
      c -> c.stream().compression().cacheControl().text()),
  SLOW_READER(
      SettingKeys.SLOW_READER,
      (c, v) -> c.withClient(c.client().withSlowReaderPauseNanos(Units.parseDurationNanos(v))),
      c -> Units.formatDuration(c.client().slowReaderPauseNanos())),
  CONCURRENCY(
      SettingKeys.CONCURRENCY,
      (c, v) -> c.withClient(c.client().withRequests(c.client().requests(), Integer.parseInt(v))),
      c -> Integer.toString(c.client().concurrency())),
  REQUESTS(
      SettingKeys.REQUESTS,
      (c, v) ->
          c.withClient(c.client().withRequests(Integer.parseInt(v), c.client().concurrency())),
      c -> Integer.toString(c.client().requests())),
  KEEP_ALIVE(
      SettingKeys.KEEP_ALIVE,
      (c, v) -> c.withClient(c.client().withKeepAlive(Boolean.parseBoolean(v))),
      c -> Boolean.toString(c.client().keepAlive())),
  TIMEOUT(
      SettingKeys.TIMEOUT,
      (c, v) -> c.withClient(c.client().withTimeoutNanos(Units.parseDurationNanos(v))),
      c -> Units.formatDuration(c.client().timeoutNanos())),
  MODEL(SettingKeys.MODEL, Cell::withModel, Cell::model),
  HTTP(
      SettingKeys.HTTP,
      (c, v) -> c.withClient(c.client().withHttp(Named.parseOrThrow(HttpVersion.class, v))),
      c -> c.client().http().text()),
  STREAMS_PER_CONNECTION(
      SettingKeys.STREAMS_PER_CONNECTION,
      (c, v) -> c.withClient(c.client().withStreamsPerConnection(Integer.parseInt(v))),
      c -> Integer.toString(c.client().streamsPerConnection())),
  H2_WINDOW(
      SettingKeys.H2_WINDOW,
      (c, v) -> c.withClient(c.client().withH2Window((int) Units.parseBytes(v))),
      c -> c.client().h2Window() + "B"),
  PROFILE(
      SettingKeys.PROFILE,
      (c, v) -> c.withProfile(Named.parse(ClientProfile.class, v)),
      c -> c.profile().text());

  private final Key key;
  private final BiFunction<Cell, String, Cell> apply;
  private final Function<Cell, String> text;

  Setting(Key key, BiFunction<Cell, String, Cell> apply, Function<Cell, String> text) {
    this.key = key;
    this.apply = apply;
    this.text = text;
  }

  public Key key() {
    return key;
  }

  /** The cell with this setting's value set from {@code value}, a text its key has checked. */
  Cell apply(Cell c, String value) {
    return apply.apply(c, value);
  }

  /** This setting's value in {@code c}, as the results show it; null when it is not set. */
  public String text(Cell c) {
    return text.apply(c);
  }

  /** The setting a scenario names, or null. */
  public static Setting named(String name) {
    for (Setting s : values()) if (s.key.name().equals(name)) return s;
    return null;
  }
}
