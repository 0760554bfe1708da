package flushlab.scenario;

/** The scenario key reference, generated from {@link SettingKey#ALL} so docs and validation agree. */
public final class ScenarioReference {
  private ScenarioReference() {}

  public static String markdown() {
    StringBuilder md = new StringBuilder();
    md.append("| key | section | allowed | default | meaning |\n|---|---|---|---|---|\n");
    for (SettingKey k : SettingKey.ALL) {
      md.append("| `").append(k.name()).append("` | ").append(k.section()).append(" | ").append(k.allowed().replace("|", "/"))
          .append(" | ").append(k.defaultValue() == null ? "(none)" : "`" + k.defaultValue() + "`").append(" | ")
          .append(k.description()).append(" |\n");
    }
    return md.toString();
  }
}
