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
        row(md, "key", "section", "allowed", "default", "meaning");
        for (Key k : settingsTable())
          row(
              md,
              "`" + k.name() + "`",
              k.section().path,
              cell(k.allowed()),
              k.defaultShown(),
              cell(k.meaning()));
        return md.toString();
      case TARGET:
        row(md, "key", "applies to", "allowed", "meaning");
        for (Key k : Keys.in(section))
          row(md, "`" + k.name() + "`", kinds(k.appliesTo()), cell(k.allowed()), cell(k.meaning()));
        return md.toString();
      default:
        row(md, "key", "allowed", "default", "meaning");
        for (Key k : Keys.in(section))
          row(md, "`" + k.name() + "`", cell(k.allowed()), k.defaultShown(), cell(k.meaning()));
        return md.toString();
    }
  }

  /** A table's row; its heading's (the first written) is followed by the alignment row. */
  private static void row(StringBuilder md, String... cells) {
    boolean heading = md.length() == 0;
    md.append("| ").append(String.join(" | ", cells)).append(" |\n");
    if (heading) md.append("|").append("---|".repeat(cells.length)).append('\n');
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
