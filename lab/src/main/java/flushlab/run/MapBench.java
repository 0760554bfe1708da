package flushlab.run;

import flushlab.core.HostPort;
import flushlab.map.FlushTrigger;
import flushlab.map.TriggerKind;
import flushlab.netpath.NetworkPath;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.scenario.Expectations;
import flushlab.scenario.MapScenario;
import flushlab.scenario.RequestHeaders;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioLoader;
import flushlab.stream.Endpoint;
import flushlab.targets.Target;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * `flushlab bench map`: for one built-in relay of each kind, how long `flushlab map` takes and how
 * many cells it measures, beside the shipped 21-cell sweep (scenarios/flush-trigger-map.yaml) on
 * the same relay, in the same run. Each row says whether each answer named the relay's kind and
 * came within 10 % of its values; the relays' settings are fixed here, so rows compare across runs.
 */
public final class MapBench {
  /**
   * One relay, and the answer a right map gives for it (NaN: any value; the cork's segment size is
   * the kernel's).
   */
  record Case(TriggerKind kind, String shaper, Double thresholdBytes, Double timerMs) {}

  static final List<Case> CASES =
      List.of(
          new Case(TriggerKind.NONE, "passthrough", null, null),
          new Case(TriggerKind.DRAIN, "drain-and-flush", null, null),
          new Case(TriggerKind.BYTE_THRESHOLD, "byte-threshold=3000B", 3000.0, null),
          new Case(TriggerKind.TIMER, "timer=150ms", null, 150.0),
          new Case(
              TriggerKind.TIMER,
              "timer=350ms",
              null,
              350.0), // its large-frame releases exceed 64 KiB
          new Case(TriggerKind.PERIODIC_TIMER, "timer=120ms,periodic=true", null, 120.0),
          new Case(
              TriggerKind.THRESHOLD_OR_TIMER,
              "threshold-or-timer,bytes=2500B,after=150ms",
              2500.0,
              150.0),
          new Case(TriggerKind.CORK, "cork", Double.NaN, 200.0),
          new Case(TriggerKind.WINDOW, "window=48KiB,update=timer,after=50ms", 49152.0, 50.0),
          new Case(TriggerKind.ONE_LATE, "one-late", null, null),
          new Case(TriggerKind.FIRST_CONTENT, "first-content=any", null, null));

  private static final Path SWEEP = Path.of("scenarios/flush-trigger-map.yaml");

  private final Vertx vertx;
  private final PrintStream out;

  public MapBench(Vertx vertx, PrintStream out) {
    this.vertx = vertx;
    this.out = out;
  }

  /**
   * Prints the table; true when every map answer was right and within the 60 s budget (and, with
   * {@code verify}, its model reproduced every cell: an answer whose replay differed is not given).
   */
  public boolean run(boolean withSweep, boolean verify) throws Exception {
    Scenario sweep = withSweep ? ScenarioLoader.load(SWEEP) : null;
    out.println(
        "flushlab map"
            + (verify ? " --verify" : "")
            + " (budget 60 s) vs the shipped sweep "
            + (withSweep ? SWEEP + " (21 cells of 48 frames)" : "(skipped: --no-sweep)")
            + ", on the same built-in relay:");
    out.println(
        "| relay | map answer | map s | map cells | sweep answer | sweep s | sweep / map |");
    out.println("|---|---|---:|---:|---|---:|---:|");
    boolean allRight = true;
    int within20 = 0;
    int sweepRight = 0;
    for (Case c : CASES) {
      Target relay =
          new Target.Relay(
              "relay", List.of(ShaperRegistry.parse(c.shaper)), false, NetworkPath.LOOPBACK);
      long t0 = System.nanoTime();
      Outcome m =
          new ScenarioRunner(
                  MapScenario.of(
                      relay, Endpoint.SSE, new HostPort("127.0.0.1", 0), "flushlab bench map"),
                  vertx)
              .verifyByReplay(verify)
              .map(line -> {}, 60);
      double mapSeconds = (System.nanoTime() - t0) / 1e9;
      FlushTrigger mapAnswer = m.triggers().get("relay");
      boolean right = judge(c, mapAnswer) && mapSeconds <= 60;
      allRight &= right;
      if (right && mapSeconds <= 20) within20++;
      String sweepCells = "";
      if (sweep != null) {
        // the sweep's cells against the relay alone, its answer mapped: as on this host, nothing
        // expected of it
        Scenario one =
            sweep.with(
                b ->
                    b.targets(List.of(relay))
                        .flushTriggerMap(true)
                        .adaptive(null)
                        .requestHeaders(RequestHeaders.none())
                        .cluster(null)
                        .expect(Expectations.NONE));
        long t1 = System.nanoTime();
        Outcome s = new ScenarioRunner(one, vertx).run(line -> {});
        double sweepSeconds = (System.nanoTime() - t1) / 1e9;
        FlushTrigger sweepAnswer = s.triggers().get("relay");
        if (judge(c, sweepAnswer)) sweepRight++;
        sweepCells =
            String.format(
                " %s | %.1f | %.1f |",
                answer(c, sweepAnswer), sweepSeconds, sweepSeconds / mapSeconds);
      } else {
        sweepCells = " - | - | - |";
      }
      out.printf(
          "| %s | %s%s | %.1f | %d |%s%n",
          c.shaper,
          answer(c, mapAnswer),
          verify ? replayed(mapAnswer, m.replayedCells()) : "",
          mapSeconds,
          m.results().size(),
          sweepCells);
    }
    out.printf(
        "%nmap: %s right within 60 s, %d of %d within 20 s (target: every kind right in 60 s or less, most in 20 s)%n",
        allRight ? "every kind" : "NOT every kind", within20, CASES.size());
    if (sweep != null) out.printf("sweep: %d of %d right%n", sweepRight, CASES.size());
    return allRight;
  }

  /**
   * The answer in a few words, marked "(undecided)" when inconclusive (the cells could not tell),
   * and "(WRONG)" when it names another kind or misses a value by more than 10 %.
   */
  private static String answer(Case c, FlushTrigger t) {
    if (t == null) return "no answer (not certified)";
    StringBuilder s = new StringBuilder(t.kind().text());
    if (t.thresholdBytes() != null) s.append(String.format(" %.0f B", t.thresholdBytes()));
    if (t.timerMs() != null) s.append(String.format(" %.1f ms", t.timerMs()));
    if (t.kind() == TriggerKind.INCONCLUSIVE) {
      s.append(" (undecided)");
    } else if (!judge(c, t)) {
      s.append(" (WRONG)");
    }
    return s.toString();
  }

  /**
   * "; replayed: 5 of 5 cells", "; not replayed" or the replay's sentence where no cell was
   * compared: how the model's replay went.
   */
  private static String replayed(FlushTrigger t, List<ReplayedCell> cells) {
    if (t == null) return "";
    if (t.replay() == null) return "; not replayed";
    if (cells.isEmpty()) return "; replay: " + t.replay();
    long agree = cells.stream().filter(c -> c.difference() == null).count();
    return "; replayed: " + agree + " of " + cells.size() + " cells";
  }

  static boolean judge(Case c, FlushTrigger t) {
    return t != null
        && t.kind() == c.kind
        && near(t.thresholdBytes(), c.thresholdBytes)
        && near(t.timerMs(), c.timerMs);
  }

  private static boolean near(Double got, Double expected) {
    if (expected == null) return got == null;
    if (expected.isNaN()) return true;
    return got != null && Math.abs(got - expected) <= 0.10 * expected;
  }
}
