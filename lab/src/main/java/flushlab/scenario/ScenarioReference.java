package flushlab.scenario;

import flushlab.targets.TargetKind;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The scenario key reference, generated from {@link Keys} so that docs and validation agree:
 * scenarios/README.md carries each table (a test checks it is current), and {@code flushlab
 * validate --reference} prints them all.
 */
public final class ScenarioReference {
  private ScenarioReference() {}

  /** One section's table. */
  public static String table(Key.Section section) {
    StringBuilder md = new StringBuilder();
    switch (section) {
      case EMITTER:
      case CLIENT:
        md.append("| key | section | allowed | default | meaning |\n|---|---|---|---|---|\n");
        for (Key k : settingsTable()) {
          md.append("| `")
              .append(k.name())
              .append("` | ")
              .append(k.section().path)
              .append(" | ")
              .append(cell(k.allowed()))
              .append(" | ")
              .append(k.defaultShown())
              .append(" | ")
              .append(cell(k.meaning()))
              .append(" |\n");
        }
        return md.toString();
      case TARGET:
        md.append("| key | applies to | allowed | meaning |\n|---|---|---|---|\n");
        for (Key k : Keys.in(section)) {
          md.append("| `")
              .append(k.name())
              .append("` | ")
              .append(kinds(k.appliesTo()))
              .append(" | ")
              .append(cell(k.allowed()))
              .append(" | ")
              .append(cell(k.meaning()))
              .append(" |\n");
        }
        return md.toString();
      default:
        md.append("| key | allowed | default | meaning |\n|---|---|---|---|\n");
        for (Key k : Keys.in(section)) {
          md.append("| `")
              .append(k.name())
              .append("` | ")
              .append(cell(k.allowed()))
              .append(" | ")
              .append(k.defaultShown())
              .append(" | ")
              .append(cell(k.meaning()))
              .append(" |\n");
        }
        return md.toString();
    }
  }

  /** The emitter and client settings are one table (a sweep varies both alike). */
  private static List<Key> settingsTable() {
    return Keys.ALL.stream().filter(k -> k.section().isSetting()).toList();
  }

  /**
   * The sections that have a table of their own, in reference order (emitter and client share one).
   */
  public static final List<Key.Section> TABLES =
      List.of(
          Key.Section.TOP,
          Key.Section.EMITTER,
          Key.Section.TARGET,
          Key.Section.GUARDS,
          Key.Section.CERTIFY,
          Key.Section.ADAPTIVE,
          Key.Section.UPLOAD,
          Key.Section.KEEPALIVE,
          Key.Section.SERVER,
          Key.Section.CLUSTER);

  /** Every table with a heading: what {@code flushlab validate --reference} prints. */
  public static String markdown() {
    StringBuilder md = new StringBuilder();
    for (Key.Section s : TABLES) {
      md.append("## ").append(heading(s)).append("\n\n").append(table(s)).append('\n');
    }
    return md.toString();
  }

  static String heading(Key.Section s) {
    switch (s) {
      case TOP:
        return "Top level";
      case EMITTER:
        return "Emitter and client settings";
      case TARGET:
        return "Targets";
      case GUARDS:
        return "Guards";
      case CERTIFY:
        return "guards.certify";
      case UPLOAD:
        return "Probe scenarios: upload";
      case KEEPALIVE:
        return "Probe scenarios: keepalive";
      case SERVER:
        return "Probe scenarios: servers";
      case CLUSTER:
        return "cluster (a scenario on a lab's agents)";
      default:
        return "Adaptive bisection";
    }
  }

  private static String kinds(Set<TargetKind> kinds) {
    return kinds.size() == TargetKind.values().length
        ? "all"
        : String.join(
            ", ",
            Arrays.stream(TargetKind.values())
                .filter(kinds::contains)
                .map(TargetKind::text)
                .toList());
  }

  /** A table cell: a '|' would end it. */
  private static String cell(String s) {
    return s.replace("|", "/");
  }
}
