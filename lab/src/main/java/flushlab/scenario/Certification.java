package flushlab.scenario;

import java.util.List;

/**
 * The direct-path certification that must pass before any target row counts.
 *
 * @param framesPerRead over the kept runs together
 */
public record Certification(boolean certified, double framesPerRead, List<RunRecord> runs) {}
