package flushlab.stream;

import flushlab.core.Named;
import java.util.List;

/**
 * Whether the emitter sends {@code X-Accel-Buffering} (nginx's per-response buffering switch), and
 * which value.
 */
public enum XAccelBuffering implements Named {
  ABSENT,
  NO,
  YES;

  public static List<String> settingNames() {
    return Named.texts(XAccelBuffering.class);
  }

  public static XAccelBuffering named(String name) {
    return Named.parseOrThrow(XAccelBuffering.class, name);
  }
}
