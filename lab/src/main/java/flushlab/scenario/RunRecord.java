package flushlab.scenario;

import flushlab.client.BatchResult;

/**
 * One run of one target in one cell: its measurement, and whether a declared guard excluded it
 * (with the reason). An excluded run is counted, never silently dropped.
 */
public record RunRecord(String target, int cell, int run, BatchResult result, boolean excluded, String exclusionReason,
    long maxPacingLatenessNanos, int unauditedStreams) {}
