package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;

/**
 * Two stages: a holding stage (a buffer, a hold timer, a periodic timer, one-late) whose every
 * release then meets one-late, which writes each chunk only when the next one comes (a framework's
 * writer behind a proxy's buffer). The client sees the holding stage's releases, each one release
 * late: the same frames per release and the same gaps, but the oldest frame waited one gap more,
 * and a stream the holding stage released once before its end arrives in one piece at the end. A
 * cell the holding stage streams (frames larger than its buffer) reads as one-late alone: one frame
 * a release, one interval late.
 *
 * <p>So the cells are read back as the holding stage released them (each wait less one gap, a
 * stream that arrived whole as half its length) and every single mechanism that holds is fitted to
 * them. What this gives are candidates: the map names one only after a relay running it, replayed
 * on the target's path, reproduced every cell.
 */
public final class OneLateAfterFit {
  private OneLateAfterFit() {}

  /**
   * The candidates these cells allow, simplest first; empty when none (a cell compressed, or
   * nothing the first stage held).
   */
  public static List<TwoStageCandidate> candidates(String target, List<CellEvidence> cells) {
    List<CellEvidence> earlier = asTheFirstStageReleasedThem(cells);
    if (earlier.isEmpty()) return List.of();
    List<String> evidence = HoldingStageFits.described(HoldingStageFits.fittable(cells));
    List<FlushTrigger> first =
        new ArrayList<>(
            HoldingStageFits.of(target, earlier, evidence, NetworkPath.LOOPBACK, true, 0));
    // one-late itself in front (two writers that each wait for the next event): every frame
    // waits two intervals, which read one release earlier is one-late's single interval
    Double late = OneLateFit.fit(earlier, evidence);
    if (late != null) first.add(OneLateFit.answer(target, late, earlier, evidence));
    return first.stream().map(OneLateAfterFit::followedByOneLate).toList();
  }

  /**
   * The cells as a holding stage in front of one-late let them go; empty when no cell says anything
   * of such a stage (a cell compressed, or none held once read so). The think cell is left out, and
   * a stream released once before its end: that says only that the first stage released twice, not
   * when the second came.
   */
  static List<CellEvidence> asTheFirstStageReleasedThem(List<CellEvidence> cells) {
    List<CellEvidence> measured = HoldingStageFits.fittable(cells);
    if (measured.isEmpty() || measured.stream().anyMatch(CellEvidence::compressed))
      return List.of();
    List<CellEvidence> earlier =
        measured.stream()
            .filter(c -> !c.heldOnce())
            .map(OneLateAfterFit::asTheFirstStageReleasedIt)
            .toList();
    return earlier.stream().anyMatch(CellEvidence::held) ? earlier : List.of();
  }

  /**
   * The cell as the holding stage let it go, one release earlier than one-late passed it on: each
   * oldest frame's wait less the gap to the next release; a stream that arrived in one piece at its
   * end was released at most once before it, so it counts as a stream half as long that was never
   * released.
   */
  static CellEvidence asTheFirstStageReleasedIt(CellEvidence c) {
    return c.drained()
        ? c.drainedAs(Math.max(1, c.framesPerStream() / 2))
        : c.waitingLess(c.gapP50());
  }

  private static TwoStageCandidate followedByOneLate(FlushTrigger holding) {
    FlushTrigger both =
        holding.followedBy(
            TriggerKind.ONE_LATE,
            holding.verdict()
                + "; then one-late: each of those releases is "
                + "written only when the next one comes, so every frame waited one release longer than the holding stage alone holds it, "
                + "and the last release arrives with the end of the response");
    return new TwoStageCandidate(ShaperModel.uncompressed(both).chain(), both);
  }
}
