package flushlab.run;

import flushlab.ReadByRead;
import flushlab.client.BatchResult;
import flushlab.http.Header;
import flushlab.scenario.Cell;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioFixture;
import flushlab.stream.StreamSpec;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The runner's side of a map for tests that build streams read by read: a scenario of one relay, a
 * model's relay measured as {@code onModel} says for its chain, and a record of the identity passes
 * asked for. Nothing runs.
 */
final class FakeMapLab implements MapLab {
  /** Each identity pass asked for (true) and ended (false), in order. */
  final List<Boolean> identity = new ArrayList<>();

  private final String shapers;
  private final Function<String, Measure> onModel;

  /**
   * @param shapers the scenario's relay's shapers, as YAML writes them ({@code "timer=177ms"})
   * @param onModel how the relay of a model's chain ({@code "a -> b"}) measures each cell; null: no
   *     model is placed
   */
  FakeMapLab(String shapers, Function<String, Measure> onModel) {
    this.shapers = shapers;
    this.onModel = onModel;
  }

  @Override
  public Scenario scenario() {
    return ScenarioFixture.parseUnchecked(
        "name: fake\ntargets: [{name: t, kind: relay, shapers: [\"" + shapers + "\"]}]\n");
  }

  @Override
  public boolean interrupted() {
    return false;
  }

  @Override
  public void progress(String what) {}

  @Override
  public void identityPass(boolean on) {
    identity.add(on);
  }

  @Override
  public List<Header> headersFor(boolean identity) {
    return List.of();
  }

  @Override
  public PlacedModel placeModel(Target.Relay model, Target like, Consumer<String> announce) {
    if (onModel == null) throw new UnsupportedOperationException();
    String chain = String.join(" -> ", model.shapers().stream().map(s -> s.text()).toList());
    return new PlacedModel(onModel.apply(chain), null);
  }

  @Override
  public SilentStream silentStream(Measure on, Target target, Cell base, long deadline) {
    return null;
  }

  /**
   * Run {@code index} of {@code cell}, one stream, each frame read {@code heldMs} after it was
   * written.
   */
  static RunRecord eachHeld(Cell cell, int index, long heldMs) {
    StreamSpec s = cell.stream();
    long interval = s.intervalNanos();
    return new RunRecord(
        "t",
        cell.index(),
        index,
        new BatchResult(
            List.of(
                ReadByRead.stream(
                    s.frames(),
                    s.frameBytes(),
                    interval,
                    i -> 200_000 + i * interval + heldMs * 1_000_000L))),
        null,
        0,
        0,
        0,
        0,
        0,
        0,
        null,
        List.of());
  }
}
