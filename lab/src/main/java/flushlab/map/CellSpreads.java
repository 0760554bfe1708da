package flushlab.map;

import flushlab.client.ClientOptions;
import flushlab.relay.shaper.Cork;
import flushlab.relay.shaper.ShaperRegistry;
import java.util.List;

/**
 * Where a replay's two cells agree although their medians differ: each side's releases spread
 * (their waits, their sizes) and each median lies within the other's spread, or both released the
 * same frames but read them in a different number of reads because a release about the client's
 * read buffer falls on either side of it. {@link Replay} asks these before it calls a cell
 * different.
 */
final class CellSpreads {
  private CellSpreads() {}

  /**
   * Both sides' releases waited differently among themselves, more than the tolerance apart, and
   * each side's median wait lies within the other's p10..p90 (give or take what two medians may
   * differ by, {@link #within}): such a cell has no one wait to match, and the median of its few
   * releases falls on either of its waits. A hold timer of 298 ms before the cork released 4 KiB
   * frames every 2 ms 5 times a stream, some releases gathered by the cork and some not (waits
   * 212-322 ms); the median was 298.3 ms on the target and 235.1 on its verified model's relay, and
   * the model was refused (one map in three).
   */
  static boolean inEachOthersSpread(CellEvidence t, CellEvidence m, double floorMs) {
    if (spreads(t, floorMs)
        && spreads(m, floorMs)
        && within(m.waitP50(), t, floorMs)
        && within(t.waitP50(), m, floorMs)) return true;
    return overASegment(t, m)
        && (spreads(t, floorMs) && allWithin(m, t, floorMs)
            || spreads(m, floorMs) && allWithin(t, m, floorMs));
  }

  /**
   * A release over a segment leaves the cork in parts, and its waits are where the segments' edges
   * fell: one side's waits may spread over them and the other's, on another run, all fall at one of
   * them. Then that side's waits, p10 to p90, lying within the other's spread are a sample of it. A
   * 305 ms hold before the cork released its 4 KiB cell's frames after 216-311 ms on the target
   * (237.6 the median) and about 289 on the right model, which was refused for it, and a clock of
   * 311 ms verified in its place (s167, a fresh-clone suite, 2026-12-06).
   */
  private static boolean overASegment(CellEvidence t, CellEvidence m) {
    return Math.max(t.releaseBytesP90(), m.releaseBytesP90()) > PairSimulation.SEGMENT;
  }

  private static boolean allWithin(CellEvidence narrow, CellEvidence wide, double floorMs) {
    return within(narrow.waitP10(), wide, floorMs) && within(narrow.waitP90(), wide, floorMs);
  }

  /**
   * The first frame's wait is the first release's oldest: where both sides' releases waited
   * differently among themselves ({@link #inEachOthersSpread}), it is one sample of that spread,
   * and agrees when each side's lies within the other's. A hold of 335 ms before the cork let its 4
   * KiB cell's first frame go after 393.9 ms on the target, 334.6 on the model, both within the
   * other's waits (224.5-398.6 ms on the target), and the model was refused for it (a fresh-clone
   * suite, 2026-12-05).
   */
  static boolean firstWaitsInEachOthersSpread(CellEvidence t, CellEvidence m, double floorMs) {
    return t.held()
        && m.held()
        && spreads(t, floorMs)
        && spreads(m, floorMs)
        && within(m.firstWaitMs(), t, floorMs)
        && within(t.firstWaitMs(), m, floorMs);
  }

  /**
   * The same for what a release carries: both sides' releases differ in size among themselves by
   * more than the tolerance ({@link #sizesSpread}), and each side's median release lies within the
   * other's p10..p90 in bytes. In that 4 KiB cell behind a timer and the cork, releases of 10-655
   * KB, the median release was 14 frames on the target and 3 on the model (one map in eight).
   */
  static boolean releasesInEachOthersSpread(CellEvidence t, CellEvidence m) {
    return sizesSpread(t)
        && sizesSpread(m)
        && withinSizes(m.releaseFrames() * m.frameBytes(), t)
        && withinSizes(t.releaseFrames() * t.frameBytes(), m);
  }

  /**
   * Releases over a segment, read in parts on one side or both: a side's sizes spread, and the
   * largest releases (p90 in bytes), each the stage's whole write, alike. The parts a cork lets
   * such a write go in are where a segment's edge fell: a 326 ms hold's 4 KiB cell showed releases
   * of 63-655 KB on the target, a median of 159 frames, and 3 frames the median on the right model,
   * which was refused for it (and a hold 8 % short verified after it: a fresh-clone suite,
   * 2026-12-06); a 360 ms hold's, 175 frames whole on the target against 4 on the model.
   */
  static boolean largestReleasesAlike(CellEvidence t, CellEvidence m) {
    return t.releaseBytesP90() > PairSimulation.SEGMENT
        && (sizesSpread(t) || sizesSpread(m))
        && Replay.close(
            t.releaseBytesP90(), m.releaseBytesP90(), Replay.FRAMES_SHARE, t.frameBytes());
  }

  /**
   * The fewest and most bytes a release (p10, p90) further apart than two medians may be ({@link
   * Replay#close}, a frame the floor). Measured against the median, a spread of half of it, two
   * flushes of 43 frames or three a clock's tick (1438 and 2159 B about a median of 1444 B), fell
   * one byte short, and the right model of that compressor was refused for its median of three
   * flushes (a map, 2026-12-06).
   */
  private static boolean sizesSpread(CellEvidence c) {
    return !Replay.close(
        c.releaseBytesP10(), c.releaseBytesP90(), Replay.FRAMES_SHARE, c.frameBytes());
  }

  private static boolean withinSizes(double bytes, CellEvidence c) {
    return bytes >= (1 - Replay.FRAMES_SHARE) * c.releaseBytesP10()
        && bytes <= (1 + Replay.FRAMES_SHARE) * c.releaseBytesP90();
  }

  private static boolean spreads(CellEvidence c, double floorMs) {
    return c.waitP90() - c.waitP10() > 2 * Math.max(floorMs, Replay.WAIT_SHARE * c.waitP50());
  }

  /**
   * Whether a wait lies within the cell's p10..p90, each end given the tolerance two medians get
   * (15 % or the floor): an end is a measurement too. With the floor alone, a model of a 329 ms
   * hold then the cork was refused for a median 0.3 ms short of the target's p10 (a fresh-clone
   * suite, 2026-12-05).
   */
  private static boolean within(double waitMs, CellEvidence c, double floorMs) {
    return waitMs >= c.waitP10() - Math.max(floorMs, Replay.WAIT_SHARE * c.waitP10())
        && waitMs <= c.waitP90() + Math.max(floorMs, Replay.WAIT_SHARE * c.waitP90());
  }

  /**
   * The most one of the map's reads returns ({@link ClientOptions#DEFAULT}'s buffer, which every
   * map cell reads with).
   */
  static final int READ_BYTES = ClientOptions.DEFAULT.recvBufferBytes();

  /**
   * Both sides released the same frames at a time, releases of about a read's buffer or more, and
   * read them in up to twice as many reads on one side: a release over the buffer is read in two,
   * and which side of 64 KiB a release of about one segment falls is a few hundred bytes of
   * framing, not the mechanism. Stock HAProxy released 4 KiB frames 16 at a time, 65727 B, which
   * the client read in two reads (7.79 frames per read); its cork model released the same 16 in
   * 65503 B, one read (15.39).
   */
  static boolean splitByTheReadBuffer(CellEvidence t, CellEvidence m) {
    return t.held()
        && m.held()
        && Replay.close(t.releaseFrames(), m.releaseFrames(), Replay.FRAMES_SHARE, 1)
        && Math.max(t.releaseBytesP50(), m.releaseBytesP50()) >= READ_BYTES
        && Math.max(t.framesPerRead(), m.framesPerRead())
            <= 2 * Math.min(t.framesPerRead(), m.framesPerRead()) + 0.5;
  }

  /**
   * Both sides let a cell go a push at a time, long before the cork's ceiling: the kernel pushes a
   * corked socket once half the largest window its peer offered waits, and that window is the
   * client's, moved by how its reads kept up, not the mechanism's. Stock HAProxy released 4 KiB
   * frames 16 at a time (65727 B) in twenty fresh-clone suites and 12 at a time (49279 B, every 24
   * ms) in one, on a loaded host, where its cork model released 16 (s249, 2026-12-07).
   */
  static boolean bothPushedBySize(CellEvidence t, CellEvidence m) {
    return pushedBySize(t) && pushedBySize(m);
  }

  private static boolean pushedBySize(CellEvidence c) {
    return c.held()
        && !c.drained()
        && c.releaseBytesP50() >= PairSimulation.FIRST_PUSH_BYTES
        && c.waitP50() < CorkAfterFit.CEILING_MS / 2;
  }

  /** Whether {@code model}'s chain has the cork: a push is the kernel's only behind it. */
  static boolean corks(String model) {
    List<ShaperRegistry.Spec> specs = ChainStages.specs(model);
    return specs != null && specs.stream().anyMatch(s -> s.type() == Cork.TYPE);
  }
}
