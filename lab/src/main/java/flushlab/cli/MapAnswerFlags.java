package flushlab.cli;

import com.beust.jcommander.Parameter;
import flushlab.map.FlushTrigger;
import flushlab.map.ModelExpectation;
import flushlab.report.ReproBundle;
import flushlab.run.Outcome;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What `map` does with its answer beyond printing it: replay it, hold it against an expectation,
 * bundle it for a bug report.
 */
final class MapAnswerFlags {
  @Parameter(
      names = "--verify",
      description =
          "Replay the answer's model on a built-in relay, cell by cell, within --budget; an answer "
              + "whose model does not reproduce the target is given as inconclusive (the default; kept for scripts that ask for it)")
  boolean verify;

  @Parameter(
      names = "--no-verify",
      description =
          "Give the answer without replaying its model: in about half the time, and unchecked "
              + "(the model line says it was not replayed)")
  boolean noVerify;

  /**
   * Whether the answer's model is replayed: unless --no-verify. A name is not a reproduction: an
   * answer is given only once a relay running its model did to every cell what the target did (a
   * hold of 98 ms then one-late, mapped unreplayed at two intervals, was once answered as a hold of
   * 197.5 ms, which no replay would have passed).
   */
  boolean replay() {
    if (verify && noVerify) {
      throw new IllegalArgumentException(
          "--verify and --no-verify: give one (the map replays its answer unless --no-verify)");
    }
    return !noVerify;
  }

  @Parameter(
      names = "--expect",
      description =
          "Exit 1 unless the answer is this: a kind (none, byte-threshold, ...) or a model as "
              + "--shape takes it (byte-threshold=4KiB), its given numbers within --expect-tolerance")
  String expect;

  @Parameter(
      names = "--expect-tolerance",
      description = "How far a number of the answer's model may be from --expect's, e.g. 10%")
  String expectTolerance = "10%";

  @Parameter(
      names = "--repro",
      description =
          "Also write a bundle for a bug report into this new folder: the model as a scenario "
              + "beside the direct path, the answer, a README")
  String repro;

  /** --expect and its tolerance, checked before anything starts; null when not given. */
  ModelExpectation expectation() {
    String t = expectTolerance == null ? "" : expectTolerance.trim();
    double tolerance = -1;
    try {
      if (t.endsWith("%"))
        tolerance = Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100;
    } catch (NumberFormatException e) {
      tolerance = -1;
    }
    if (!(tolerance >= 0 && tolerance <= 1)) {
      throw new IllegalArgumentException(
          "--expect-tolerance " + expectTolerance + ": a percentage from 0% to 100%, e.g. 10%");
    }
    if (expect == null) return null;
    try {
      return ModelExpectation.parse(expect, tolerance);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--expect: " + e.getMessage());
    }
  }

  /** --repro's folder, checked before anything is measured. */
  void checkRepro() {
    if (repro == null) return;
    try {
      ReproBundle.checkWritable(Path.of(repro));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "--repro "
              + repro
              + ": cannot write the bundle there ("
              + e.getMessage()
              + "); nothing was measured");
    }
  }

  /**
   * The published answer held against --expect: 0 when it is what was expected, 1 with the
   * difference printed.
   */
  static int checkExpected(ModelExpectation expected, Outcome o, PrintStream out, PrintStream err) {
    FlushTrigger trigger = o.triggers().values().stream().findFirst().orElse(null);
    String difference = trigger == null ? "there is no answer" : expected.difference(trigger);
    if (difference == null) {
      out.println("expect: met: " + expected.describe());
      return Command.EXIT_OK;
    }
    err.println("flushlab map: --expect " + expected.describe() + ": not met: " + difference);
    return Command.EXIT_FAILED;
  }
}
