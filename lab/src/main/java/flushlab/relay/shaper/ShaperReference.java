package flushlab.relay.shaper;

/**
 * The shaper reference (Markdown), generated from the registry so docs/SHAPERS.md and the code
 * agree.
 */
public final class ShaperReference {
  private ShaperReference() {}

  public static String markdown() {
    StringBuilder md = new StringBuilder();
    for (ShaperType t : ShaperRegistry.types()) {
      md.append("## `")
          .append(t.name())
          .append("`")
          .append(t.fault() ? " (fault)" : "")
          .append("\n\n");
      md.append("Models: ").append(t.models()).append(".\n\n");
      if (t.params().isEmpty()) {
        md.append("No parameters.\n\n");
      } else {
        md.append("| parameter | allowed | default | meaning |\n|---|---|---|---|\n");
        for (int i = 0; i < t.params().size(); i++) {
          Param p = t.params().get(i);
          String def =
              p.defaultValue() != null
                  ? "`" + p.defaultValue() + "`"
                  : p.required() ? "required" : "(optional: see meaning)";
          md.append("| `")
              .append(p.key())
              .append("`")
              .append(i == 0 ? " (may be given bare)" : "")
              .append(" | ")
              .append(p.rangeText())
              .append(" | ")
              .append(def)
              .append(" | ")
              .append(p.description())
              .append(" |\n");
        }
        md.append('\n');
      }
      md.append("Example: `--shape ").append(t.example()).append("`\n\n");
    }
    return md.toString();
  }
}
