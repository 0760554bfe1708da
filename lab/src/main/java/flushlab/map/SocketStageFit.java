package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;

/**
 * Two mechanisms on one path: a holding stage (a proxy's buffer or timer) whose writes then meet
 * the client socket's Nagle algorithm (a write smaller than a segment waits while an earlier one is
 * unacknowledged). Where the holding stage writes less often than the peer acknowledges (its
 * releases of small frames), Nagle adds nothing and the cells show the holding stage alone; where
 * it writes faster (large frames at a short interval, each of which a buffer lets through), the
 * writes leave a segment at a time. Stock nginx in front of an HTTP/1.0 upstream does this: 4 KiB
 * releases of 60 B frames, but 4 KiB frames sent every 2 ms arriving 16 at a time, 64 KiB.
 *
 * <p>What this gives are candidates, not answers: a single mechanism fitted to the cells Nagle left
 * alone (one-late, a byte threshold, a buffer written N bytes at a time, a hold or periodic timer),
 * followed by Nagle. The map names one only after a relay running it, replayed on the target's
 * path, reproduced every cell the target showed ({@link Replay}); that is what tells a socket stage
 * from noise in one cell. A holding stage followed by one-late is {@link OneLateAfterFit}'s. The
 * kernel's cork after a buffer, and a holding stage whose every cell writes faster than the peer
 * acknowledges, are not candidates yet.
 */
public final class SocketStageFit {

  /**
   * A release of at least this share of a segment, carrying several frames, is the socket's: a
   * segment filled before the ACK came.
   */
  static final double SEGMENT_SHARE = 0.5;

  private SocketStageFit() {}

  /**
   * The candidates these cells allow, simplest first; empty when none (a cell compressed, no cell
   * left a segment at a time, or a path other than loopback: on a 1500 B path one buffer's release
   * is several segments already, and what Nagle then holds is only each release's last one, a
   * signature these cells do not separate yet).
   */
  public static List<TwoStageCandidate> candidates(
      String target, List<CellEvidence> cells, NetworkPath path) {
    if (!path.equals(NetworkPath.LOOPBACK)) return List.of();
    double segment = NetworkPath.LOOPBACK_MTU;
    List<CellEvidence> measured =
        cells.stream().filter(c -> c.streams() > 0 && !c.thinks()).toList();
    if (measured.isEmpty() || measured.stream().anyMatch(CellEvidence::compressed))
      return List.of();
    List<CellEvidence> segments =
        measured.stream().filter(c -> segmentAtATime(c, segment)).toList();
    List<CellEvidence> rest = measured.stream().filter(c -> !segmentAtATime(c, segment)).toList();
    if (segments.isEmpty() || rest.isEmpty()) return List.of();
    List<String> evidence = new ArrayList<>(measured.stream().map(CellEvidence::describe).toList());
    String socket =
        "then the client socket's Nagle algorithm (no TCP_NODELAY): where those writes came faster than the peer "
            + "acknowledges, they left a segment at a time ("
            + segmentsText(segments, segment)
            + ")";
    List<TwoStageCandidate> out = new ArrayList<>();
    if (rest.stream().allMatch(CellEvidence::streamed)) {
      FlushTrigger alone =
          new FlushTrigger(
              target,
              TriggerKind.NAGLE,
              null,
              null,
              null,
              null,
              "nagle: each frame left at once ("
                  + Fits.across(rest)
                  + "), but "
                  + socket.substring("then ".length()),
              evidence,
              List.of());
      // Nagle lets a think's first comment go at once: a think cell that saw nothing before the
      // first frame says first-content holds in front of it
      List<CellEvidence> thinking = cells.stream().filter(CellEvidence::thinks).toList();
      FlushTrigger seen = FirstContentFit.after(alone, 0, thinking, evidence);
      out.add(new TwoStageCandidate(ShaperModel.uncompressed(seen).chain(), seen));
      return out;
    }
    List<String> scratch = new ArrayList<>();
    // one-late writes each frame as the next comes: at large frames and a short interval, faster
    // than the peer acknowledges
    Double late = OneLateFit.fit(rest, scratch);
    if (late != null)
      out.add(followedByNagle(OneLateFit.answer(target, late, rest, evidence), socket));
    Span bytes = ByteThresholdFit.fit(rest, scratch);
    if (bytes != null)
      out.add(followedByNagle(ByteThresholdFit.answer(target, bytes, rest, evidence), socket));
    Span split = bytes == null ? SplitBufferFit.fit(rest, scratch) : null;
    if (split != null)
      out.add(followedByNagle(SplitBufferFit.answer(target, split, rest, evidence), socket));
    Double hold = HoldTimerFit.fit(rest, scratch);
    if (hold != null)
      out.add(followedByNagle(HoldTimerFit.answer(target, hold, rest, evidence, path), socket));
    Double period = PeriodicTimerFit.fit(rest, scratch);
    if (period != null)
      out.add(followedByNagle(PeriodicTimerFit.answer(target, period, rest, evidence), socket));
    return out;
  }

  private static TwoStageCandidate followedByNagle(FlushTrigger holding, String socket) {
    FlushTrigger both =
        new FlushTrigger(
                holding.target(),
                holding.kind(),
                holding.thresholdBytes(),
                holding.thresholdBodyBytes(),
                holding.timerMs(),
                holding.events(),
                holding.verdict(),
                holding.evidence(),
                List.of())
            .followedBy(TriggerKind.NAGLE, holding.verdict() + "; " + socket);
    return new TwoStageCandidate(ShaperModel.uncompressed(both).chain(), both);
  }

  /**
   * Released several frames at a time, at least half a segment each and no more than a segment and
   * the frame that tipped it, or two frames of about a segment each (a write under the segment
   * waits for the ACK of the one before it: frames of 63571 B every 2 ms left two at a time behind
   * `nagle -> byte-threshold=1706B` as a browser, and that cell, measured to tell a threshold from
   * a timer, kept the threshold's own cells from being fitted: inconclusive, a chain bench,
   * 2026-12-07). Nagle never holds a full segment: once one waits it leaves, so releases of several
   * segments are a holding stage's (`byte-threshold=8173B -> timer=92ms` as a browser released 4
   * KiB frames 46 at a time, 188799 B every 92 ms, and was answered `byte-threshold=8151B ->
   * nagle`, whose replay released 16 at a time every 32 ms and was let pass as Nagle's on both
   * sides: a chain bench, 2026-12-07).
   */
  static boolean segmentAtATime(CellEvidence c, double segment) {
    return c.held()
        && c.releaseFrames() >= 2
        && c.releaseBytesP50() >= SEGMENT_SHARE * segment
        && c.releaseBytesP50() <= segment + 2 * c.frameBytes();
  }

  private static String segmentsText(List<CellEvidence> cells, double segment) {
    List<String> parts = new ArrayList<>();
    for (CellEvidence c : cells) {
      parts.add(
          String.format(
              "%s: %.0f frames, %.0f B, per release, %.1f ms apart",
              c.label(), c.releaseFrames(), c.releaseBytesP50(), c.gapP50()));
    }
    return String.join("; ", parts) + String.format("; a segment here is %.0f B", segment);
  }
}
