package flushlab.scenario;

import flushlab.map.FlushTrigger;
import flushlab.map.ModelExpectation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario's {@code expect:} block: what each named target's flush-trigger answer must be, for a
 * CI pipeline that fails when a proxy's buffering changes (the scenario form of `map --expect`).
 * Targets it does not name are not checked.
 */
public record Expectations(Map<String, ModelExpectation> byTarget) {
  public static final Expectations NONE = new Expectations(Map.of());

  public Expectations {
    byTarget = Collections.unmodifiableMap(new LinkedHashMap<>(byTarget));
  }

  public boolean isEmpty() {
    return byTarget.isEmpty();
  }

  /** One target's expectation held against its answer; {@code difference} null when met. */
  public record Checked(String target, String expected, String difference) {
    public boolean met() {
      return difference == null;
    }
  }

  /**
   * Each expectation against {@code answers} (target name to answer), in the order written. A
   * target with no answer (the run was cut short before the map) is not met: no answer from missing
   * data.
   */
  public List<Checked> check(Map<String, FlushTrigger> answers) {
    List<Checked> out = new ArrayList<>();
    byTarget.forEach(
        (target, e) -> {
          FlushTrigger answer = answers.get(target);
          out.add(
              new Checked(
                  target,
                  e.describe(),
                  answer == null ? "there is no answer for it" : e.difference(answer)));
        });
    return out;
  }
}
