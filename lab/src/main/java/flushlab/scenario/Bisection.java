package flushlab.scenario;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The adaptive bisection's path and answer: the steps measured, the nearest values found where
 * the target coalesces and where it streams (null when no transition was located), and a verdict.
 */
public record Bisection(
    @JsonProperty("target") String target,
    @JsonProperty("parameter") String parameter,
    @JsonProperty("steps") List<Step> steps,
    @JsonProperty("coalescing_at") String coalescingAt,
    @JsonProperty("streaming_at") String streamingAt,
    @JsonProperty("verdict") String verdict) {

  /** One step: the value measured, the frames per read it gave, and how many runs the guard excluded. */
  public record Step(
      @JsonProperty("value") String value,
      @JsonProperty("frames_per_read") double framesPerRead,
      @JsonProperty("excluded_runs") int excludedRuns) {}
}
