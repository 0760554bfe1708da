package flushlab.scenario;

import static flushlab.scenario.Key.Section.CERTIFY;
import static flushlab.scenario.Key.Section.GUARDS;

import flushlab.core.FrameCodec;
import flushlab.core.Units;
import flushlab.scenario.Key.Type;
import flushlab.stream.StreamSpec;

/**
 * The {@code guards:} section: the pacing tolerance and the direct path's certification. Every key
 * is listed in {@link Keys#ALL}, which gives the reference its order.
 */
public final class GuardKeys {
  private GuardKeys() {}

  // ---- guards
  public static final Key PACING_TOLERANCE =
      Key.of(
              "pacing_tolerance",
              GUARDS,
              Type.DURATION,
              "5ms",
              "a run in which the emitter wrote any frame later than this after its deadline (its own audit) is excluded and counted, "
                  + "never blamed on a target")
          .range(10_000, 10e9);
  public static final Key CERTIFY_SECTION =
      Key.of(
              "certify",
              GUARDS,
              Type.STRUCTURED,
              null,
              "the direct-path certification that must pass before any target row counts")
          .shape("map (below)")
          .shownDefault("below");
  public static final Key CERTIFY_RUNS =
      Key.of("runs", CERTIFY, Type.INT, "3", "direct-path runs that certify the host")
          .range(1, 100);
  public static final Key CERTIFY_CEILING =
      Key.of(
              "max_frames_per_read",
              CERTIFY,
              Type.DECIMAL,
              "1.10",
              "the direct path must read at or under this; above it the scenario stops (exit 3) and publishes no target row")
          .range(1.0, 100);
  public static final Key CERTIFY_FRAMES =
      Key.of(
              "frames",
              CERTIFY,
              Type.INT,
              Integer.toString(StreamSpec.DEFAULT_FRAMES),
              "frames of the certification stream")
          .range(1, StreamSpec.MAX_FRAMES);
  public static final Key CERTIFY_FRAME_SIZE =
      Key.of(
              "frame_size",
              CERTIFY,
              Type.SIZE,
              StreamSpec.DEFAULT_FRAME_BYTES + "B",
              "frame size of the certification stream")
          .range(FrameCodec.MIN_FRAME_BYTES, StreamSpec.MAX_FRAME_BYTES);
  public static final Key CERTIFY_INTERVAL =
      Key.of(
              "interval",
              CERTIFY,
              Type.DURATION,
              Units.formatDuration(StreamSpec.DEFAULT_INTERVAL_NANOS),
              "interval of the certification stream")
          .range(0, StreamSpec.MAX_INTERVAL_NANOS);
}
