package flushlab.run;

import flushlab.core.Units;
import flushlab.scenario.Cell;
import flushlab.scenario.Scenario;
import flushlab.scenario.Setting;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * Bisects one setting of one target between a value where it coalesces and one where it streams,
 * until the two are within the tolerance. Each step is one cell measured with the scenario's runs;
 * the steps are part of the result. An interrupt ends it with the steps finished so far.
 */
final class Bisector {
  /** Measures one cell of the target with the scenario's runs; null when interrupted. */
  interface Step {
    TargetCellResult measure(Target target, Cell cell) throws Exception;
  }

  private final Scenario.Adaptive a;
  private final Target target;
  private final Cell base;
  private final Step step;
  private final boolean size;
  private final List<Bisection.Step> steps = new ArrayList<>();

  /** The step that had no kept frame, and why; null while every step had some. */
  private String noData;

  Bisector(Scenario.Adaptive a, Target target, Cell base, Step step) {
    this.a = a;
    this.target = target;
    this.base = base;
    this.step = step;
    this.size = a.parameter() == Setting.FRAME_SIZE;
  }

  Bisection run() throws Exception {
    double lo = size ? Units.parseBytes(a.low()) : Units.parseDurationNanos(a.low());
    double hi = size ? Units.parseBytes(a.high()) : Units.parseDurationNanos(a.high());
    double loFpr = probe(lo);
    double hiFpr = Double.isNaN(loFpr) ? Double.NaN : probe(hi);
    if (Double.isNaN(hiFpr)) return noData != null ? unmeasured() : interrupted();
    boolean loCoalesces = loFpr > a.coalescingAbove();
    boolean hiCoalesces = hiFpr > a.coalescingAbove();
    if (loCoalesces == hiCoalesces) {
      return new Bisection(
          a.target(),
          a.parameter().key().name(),
          steps,
          null,
          null,
          String.format(
              "no transition between %s (%.2f frames/read) and %s (%.2f): both %s",
              a.low(), loFpr, a.high(), hiFpr, loCoalesces ? "coalesce" : "stream"));
    }
    double coalescing = loCoalesces ? lo : hi;
    double streaming = loCoalesces ? hi : lo;
    while (steps.size() < a.maxCells()
        && Math.abs(streaming - coalescing) > a.tolerance() * Math.max(coalescing, streaming)) {
      double mid = Math.round((coalescing + streaming) / 2);
      double fpr = probe(mid);
      if (Double.isNaN(fpr)) return noData != null ? unmeasured() : interrupted();
      if (fpr > a.coalescingAbove()) {
        coalescing = mid;
      } else {
        streaming = mid;
      }
    }
    String c = format(coalescing);
    String s = format(streaming);
    return new Bisection(
        a.target(),
        a.parameter().key().name(),
        steps,
        c,
        s,
        String.format(
            "%s %s: coalesces (over %.2f frames per read) at %s, streams at %s; the transition lies between them (%d cells)",
            a.target(), a.parameter().key().name(), a.coalescingAbove(), c, s, steps.size()));
  }

  /**
   * A step whose every run a guard excluded: the bisection stops there rather than read "streams"
   * from no frames.
   */
  private Bisection unmeasured() {
    return unlocated("no data at " + noData);
  }

  private Bisection interrupted() {
    return unlocated("interrupted after " + steps.size() + " step(s)");
  }

  /** The steps measured, and {@code why} no transition was located among them. */
  private Bisection unlocated(String why) {
    return new Bisection(
        a.target(),
        a.parameter().key().name(),
        steps,
        null,
        null,
        why + ": no transition located; the steps measured are listed");
  }

  /**
   * One step at one value; NaN when interrupted (the step is then not a measurement) or when no
   * kept run read a frame ({@link #noData} says which step and why).
   */
  private double probe(double value) throws Exception {
    String v = format(value);
    TargetCellResult res = step.measure(target, base.with(a.parameter(), v));
    if (res == null) return Double.NaN;
    if (res.included().frames() == 0) {
      RunRecord last = res.runs().get(res.runs().size() - 1);
      // a step this host spoiled says so in the words every command uses: the host, not the target,
      // left it empty
      String excluded =
          res.runs().stream().allMatch(RunRecord::spoiledByHostStall)
              ? "this host stalled in every run: "
              : "every run excluded: ";
      noData =
          v
              + " ("
              + (last.excluded() ? excluded + last.exclusionReason() : "no frame was read")
              + ")";
      return Double.NaN;
    }
    double fpr = res.included().framesPerRead();
    steps.add(new Bisection.Step(v, fpr, res.excludedRuns()));
    return fpr;
  }

  /**
   * A bisection value as a setting: whole bytes, or a duration to the microsecond in readable
   * units.
   */
  private String format(double v) {
    return size ? Math.round(v) + "B" : Units.formatDurationReadable(Math.round(v / 1000) * 1000);
  }
}
