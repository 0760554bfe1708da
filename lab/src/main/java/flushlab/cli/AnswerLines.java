package flushlab.cli;

import flushlab.map.FlushTrigger;
import flushlab.map.ShaperModel;
import java.io.PrintStream;

/**
 * The lines a map's answer is printed as: its verdict and evidence, its model (or why there is
 * none), the models no cell tells apart from it, its replay, and how long it took from how many
 * cells.
 */
final class AnswerLines {
  private AnswerLines() {}

  static void print(FlushTrigger trigger, double seconds, int cells, PrintStream out) {
    out.println();
    out.println(trigger.verdict());
    for (String e : trigger.evidence()) out.println("  " + e);
    ShaperModel model = ShaperModel.of(trigger);
    boolean replayed = trigger.replay() != null;
    out.println(
        model.chain() != null
            ? "model: "
                + model.chain()
                + (replayed
                    ? ""
                    : " (not replayed against the target; "
                        + "flushlab map --shape '"
                        + model.chain()
                        + "' maps a built-in relay that does it)")
            : "model: none (" + model.note() + ")");
    if (!model.alike().isEmpty()) {
      out.println(
          "alike: "
              + String.join(", ", model.alike())
              + " (no cell the map measures tells them apart)");
    }
    if (replayed) out.println("replay: " + trigger.replay());
    out.printf("answered in %.1f s from %d cell(s)%n", seconds, cells);
  }
}
