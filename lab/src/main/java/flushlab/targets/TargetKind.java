package flushlab.targets;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The kinds of {@link Target}, as scenarios and results name them. */
public enum TargetKind {
  /** The client straight to the emitter. */
  DIRECT("direct"),
  /** A built-in relay (a shaper chain) the lab starts. */
  RELAY("relay"),
  /** A real proxy binary the lab starts from a template. */
  PROCESS("process"),
  /** A server the lab did not start. */
  EXTERNAL("external");

  private final String settingName;

  TargetKind(String settingName) {
    this.settingName = settingName;
  }

  @JsonValue
  public String settingName() {
    return settingName;
  }

  public static List<String> settingNames() {
    return Arrays.stream(values()).map(TargetKind::settingName).toList();
  }

  /** The kind a scenario names, or null. */
  public static TargetKind named(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (TargetKind k : values()) if (k.settingName.equals(n)) return k;
    return null;
  }

  @Override
  public String toString() {
    return settingName;
  }
}
