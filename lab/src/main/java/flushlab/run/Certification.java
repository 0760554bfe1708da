package flushlab.run;

import java.util.List;

/**
 * The direct-path certification that must pass before any target row counts.
 *
 * @param framesPerRead over the kept runs together
 * @param emitToRecvMs the direct path's own one-way delay (p50): what a target's waits are measured beyond
 * @param verdict "certified", or why not: the direct path coalesced, its streams failed, or this host stalled in every run
 */
public record Certification(boolean certified, double framesPerRead, double emitToRecvMs, List<RunRecord> runs, String verdict) {}
