package flushlab.scenario;

import java.util.List;

/**
 * What makes a target release bytes, inferred from a sweep, with the evidence a person can check.
 *
 * @param kind none, byte-threshold, timer, threshold-or-timer, cork, drain, or inconclusive
 * @param thresholdBytes the inferred byte threshold (or -1)
 * @param timerMs the inferred timer (or -1)
 */
public record FlushTrigger(String target, String kind, double thresholdBytes, double timerMs, String verdict,
    List<String> evidence) {}
