package flushlab.map;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The comparison of every cell: {@code verified} when all agree. */
public record ReplayVerdict(String model, List<CellMatch> cells) {
  /**
   * The same comparison with one more cell's (the silent stream's, compared apart from the measured
   * cells).
   */
  public ReplayVerdict with(CellMatch more) {
    List<CellMatch> all = new ArrayList<>(cells);
    all.add(more);
    return new ReplayVerdict(model, List.copyOf(all));
  }

  /** The same comparison with {@code more}'s cells after its own (a cell measured later). */
  public ReplayVerdict with(ReplayVerdict more) {
    List<CellMatch> all = new ArrayList<>(cells);
    all.addAll(more.cells());
    return new ReplayVerdict(model, List.copyOf(all));
  }

  public boolean verified() {
    return !cells.isEmpty() && cells.stream().allMatch(c -> c.difference() == null);
  }

  /**
   * "the model byte-threshold=3003B reproduces 4 of 4 cells" or names the first cell that differs
   * and how. The silent stream ({@link IdleCut}) is compared apart from the measured cells and said
   * after them.
   */
  public String text() {
    List<CellMatch> measured =
        cells.stream().filter(c -> !c.label().equals(IdleCut.LABEL)).toList();
    CellMatch silent =
        cells.stream().filter(c -> c.label().equals(IdleCut.LABEL)).findFirst().orElse(null);
    long agree = measured.stream().filter(c -> c.difference() == null).count();
    String counted =
        "the model " + model + " reproduces " + agree + " of " + measured.size() + " cells";
    if (verified())
      return "verified: "
          + counted
          + (silent == null ? "" : ", and its silent stream was cut as the target's was");
    CellMatch first = cells.stream().filter(c -> c.difference() != null).findFirst().orElse(null);
    return "not verified: "
        + counted
        + (silent != null && silent.difference() == null
            ? ", its silent stream cut as the target's"
            : "")
        + (first == null ? "" : "; " + first.label() + ": " + first.difference());
  }

  /** A refused replay as the models tried list it: {@link #text()} less "not verified: ". */
  public String refusal() {
    return text().replaceFirst("^not verified: the model ", "");
  }

  /** A line a cell: "replay of {label} on {@code on}: " its difference, or "agrees". */
  public List<String> cellLines(String on) {
    return cells.stream()
        .map(
            c ->
                "replay of "
                    + c.label()
                    + " on "
                    + on
                    + ": "
                    + Objects.requireNonNullElse(c.difference(), "agrees"))
        .toList();
  }
}
