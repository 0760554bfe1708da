package flushlab.map;

/**
 * What {@link PairSimulation} says a cell shows, as the meter counts it (the first release and the
 * end's flush left out), and the frames a batch carries over all of them, the end's included.
 *
 * <p>A release over a segment written into the cork leaves in parts: its whole segments at once,
 * its tail with the ceiling or the next write, so the parts a stream shows, and their median size
 * and wait, are where a segment's edge fell and a read with it (a 326 ms hold's 4 KiB cell: 159
 * frames the median release on the target, 3 on its model; of the 4 % grid, the simulation's median
 * matched it at 299.5 ms alone, and that value was verified: a fresh-clone suite, 2026-12-06).
 * Writes under a segment that fill one between them leave a segment at a time, one write or two
 * apart as the segment's edges fall, so their median gap and wait are a mix's (a 52 ms hold's 1.5
 * KiB cell: gaps of 54 and 108 ms, the median 54.2; fitted by it the hold was read 55.4 ms, a map
 * on 2026-12-07). Such a cell ({@code segmented}: the first stage wrote more than a segment into
 * the cork, or the cork sent a segment whole) is matched by its largest release ({@code framesMax})
 * and its first frame's wait.
 */
record Simulated(
    int releases,
    double framesP50,
    double waitP50,
    double firstWaitMs,
    boolean drained,
    double framesPerBatch,
    double framesMax,
    boolean segmented,
    double framesP10,
    double framesP90,
    double waitP10,
    double waitP90,
    double gapP50) {}
