package flushlab.stream;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Whether the emitter sends {@code X-Accel-Buffering} (nginx's per-response buffering switch), and which value. */
public enum XAccelBuffering {
  ABSENT("absent"), NO("no"), YES("yes");

  private final String settingName;

  XAccelBuffering(String settingName) {
    this.settingName = settingName;
  }

  public String settingName() {
    return settingName;
  }

  public static List<String> settingNames() {
    return Arrays.stream(values()).map(XAccelBuffering::settingName).toList();
  }

  public static XAccelBuffering named(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (XAccelBuffering x : values()) if (x.settingName.equals(n)) return x;
    throw new IllegalArgumentException("'" + name + "' is not one of " + String.join(", ", settingNames()));
  }

  @Override
  public String toString() {
    return settingName;
  }
}
