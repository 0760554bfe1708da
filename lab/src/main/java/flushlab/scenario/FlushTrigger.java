package flushlab.scenario;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What makes a target release bytes, inferred from a sweep, with the evidence a person can check.
 *
 * @param kind none, byte-threshold, timer, threshold-or-timer, cork, drain, or inconclusive
 * @param thresholdBytes the inferred byte threshold (or -1)
 * @param timerMs the inferred timer (or -1)
 */
public record FlushTrigger(
    @JsonProperty("target") String target,
    @JsonProperty("kind") String kind,
    @JsonProperty("threshold_bytes") double thresholdBytes,
    @JsonProperty("timer_ms") double timerMs,
    @JsonProperty("verdict") String verdict,
    @JsonProperty("evidence") List<String> evidence) {}
