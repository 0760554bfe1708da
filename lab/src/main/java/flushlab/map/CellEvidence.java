package flushlab.map;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * What one cell (a stream of frames of one size at one interval) showed about a target's releases:
 * the numbers the flush-trigger inference reasons with. Times in milliseconds, sizes in bytes,
 * percentiles over every release but each stream's first (it carries the response head) and last
 * (the end-of-stream flush).
 *
 * @param frameBytes what one frame weighed on the wire from the emitter (chunk framing included):
 *     the unit a proxy's byte threshold counts in
 * @param bodyBytes the event bytes of one frame, without the chunk framing (what users configure)
 * @param releasesPerStream releases between the first and the end-of-stream flush, per stream
 * @param releaseFrames frames per release (p50); {@code releaseFramesP10} and {@code
 *     releaseFramesP90} the fewest and most (p10, p90) as the client counted them, decoded (0 when
 *     not known: a cell built from figures that did not keep them)
 * @param waitP10 how long the oldest frame of a release waited, less the direct path's own delay
 *     (p10, p50, p90)
 * @param firstWaitMs how long each stream's first frame waited (p50), less the direct path's own
 *     delay
 * @param drained every stream arrived in one piece at its end
 * @param coding the content coding the bodies arrived in, or null when as sent; when set, {@code
 *     frameBytes} are the compressed body bytes per frame the client received (what a compressing
 *     proxy's output buffer counts), not the emitter's
 * @param releaseBytesP10 wire bytes per release (p10, p50, p90): what a flow-control window lets
 *     through per update, which need not be a whole number of frames
 * @param thinkMs the think before the first frame (0 in every cell but the think cell), with SSE
 *     comments through it every {@code keepAliveMs}
 * @param firstBodyMs from the request to the first body byte of any kind (p50), and {@code ttftMs}
 *     to the first frame
 * @param label the cell's name; {@code withLabel} gives the same evidence under another (a cell
 *     read only outside this host's stalls says so)
 * @param framesSentApartPerRead frames per read with the frames this lab's emitter wrote together
 *     counted once ({@link flushlab.client.SentTogether}): the merging the path did. Below {@code
 *     framesPerRead} only when the emitter ran late on this host and wrote due frames at once.
 */
@RecordBuilder
public record CellEvidence(
    String label,
    double frameBytes,
    double bodyBytes,
    double intervalMs,
    int framesPerStream,
    int streams,
    double framesPerRead,
    double releasesPerStream,
    double releaseFrames,
    double waitP10,
    double waitP50,
    double waitP90,
    double gapP10,
    double gapP50,
    double gapP90,
    double firstWaitMs,
    boolean drained,
    String coding,
    double releaseBytesP10,
    double releaseBytesP50,
    double releaseBytesP90,
    double thinkMs,
    double keepAliveMs,
    double firstBodyMs,
    double ttftMs,
    double releaseFramesP10,
    double releaseFramesP90,
    double framesSentApartPerRead)
    implements CellEvidenceBuilder.With {

  /** A cell without a think. */
  public CellEvidence(
      String label,
      double frameBytes,
      double bodyBytes,
      double intervalMs,
      int framesPerStream,
      int streams,
      double framesPerRead,
      double releasesPerStream,
      double releaseFrames,
      double waitP10,
      double waitP50,
      double waitP90,
      double gapP10,
      double gapP50,
      double gapP90,
      double firstWaitMs,
      boolean drained,
      String coding,
      double releaseBytesP10,
      double releaseBytesP50,
      double releaseBytesP90) {
    this(
        label,
        frameBytes,
        bodyBytes,
        intervalMs,
        framesPerStream,
        streams,
        framesPerRead,
        releasesPerStream,
        releaseFrames,
        waitP10,
        waitP50,
        waitP90,
        gapP10,
        gapP50,
        gapP90,
        firstWaitMs,
        drained,
        coding,
        releaseBytesP10,
        releaseBytesP50,
        releaseBytesP90,
        0,
        0,
        Double.NaN,
        Double.NaN,
        0,
        0,
        framesPerRead);
  }

  /**
   * The cell as its decoded body: each frame weighs its event bytes (what a compressor's input
   * counts), and a release the events it carried, as if the bodies had come as sent.
   */
  public CellEvidence asDecoded() {
    double released = releaseFrames * bodyBytes;
    return with(
        b ->
            b.frameBytes(bodyBytes)
                .coding(null)
                .releaseBytesP10(released)
                .releaseBytesP50(released)
                .releaseBytesP90(released));
  }

  /**
   * The same cell with each oldest frame's wait (and the first frame's) {@code ms} shorter, none
   * below zero: what a holding stage let go before a later stage held it that much longer.
   */
  public CellEvidence waitingLess(double ms) {
    return with(
        b ->
            b.waitP10(Math.max(0, waitP10 - ms))
                .waitP50(Math.max(0, waitP50 - ms))
                .waitP90(Math.max(0, waitP90 - ms))
                .firstWaitMs(Math.max(0, firstWaitMs - ms)));
  }

  /** The same cell as a stream of {@code frames} that arrived in one piece at its end. */
  public CellEvidence drainedAs(int frames) {
    return with(b -> b.framesPerStream(frames).drained(true));
  }

  /** The think cell: frames after a think with comments through it. */
  public boolean thinks() {
    return thinkMs > 0;
  }

  /**
   * A cell whose release sizes are known only as whole frames (the bytes per release are frames
   * times frame size).
   */
  public CellEvidence(
      String label,
      double frameBytes,
      double bodyBytes,
      double intervalMs,
      int framesPerStream,
      int streams,
      double framesPerRead,
      double releasesPerStream,
      double releaseFrames,
      double waitP10,
      double waitP50,
      double waitP90,
      double gapP10,
      double gapP50,
      double gapP90,
      double firstWaitMs,
      boolean drained,
      String coding) {
    this(
        label,
        frameBytes,
        bodyBytes,
        intervalMs,
        framesPerStream,
        streams,
        framesPerRead,
        releasesPerStream,
        releaseFrames,
        waitP10,
        waitP50,
        waitP90,
        gapP10,
        gapP50,
        gapP90,
        firstWaitMs,
        drained,
        coding,
        releaseFrames * frameBytes,
        releaseFrames * frameBytes,
        releaseFrames * frameBytes);
  }

  /** A cell whose bodies arrived as sent. */
  public CellEvidence(
      String label,
      double frameBytes,
      double bodyBytes,
      double intervalMs,
      int framesPerStream,
      int streams,
      double framesPerRead,
      double releasesPerStream,
      double releaseFrames,
      double waitP10,
      double waitP50,
      double waitP90,
      double gapP10,
      double gapP50,
      double gapP90,
      double firstWaitMs,
      boolean drained) {
    this(
        label,
        frameBytes,
        bodyBytes,
        intervalMs,
        framesPerStream,
        streams,
        framesPerRead,
        releasesPerStream,
        releaseFrames,
        waitP10,
        waitP50,
        waitP90,
        gapP10,
        gapP50,
        gapP90,
        firstWaitMs,
        drained,
        null);
  }

  public boolean compressed() {
    return coding != null;
  }

  /**
   * A release's oldest frame waits at least this long for the cell to count as held, not streamed.
   */
  public static final double HELD_MS = 5;

  public double streamMs() {
    return thinkMs + (framesPerStream - 1) * intervalMs;
  }

  public double totalBytes() {
    return framesPerStream * frameBytes;
  }

  /**
   * What the line says of frames the lab's emitter sent together, where they move the figure of a
   * cell that may have streamed (in a held cell's line it says nothing of the path).
   */
  private String sentTogether() {
    return framesPerRead - framesSentApartPerRead < 0.005 || releaseFrames >= 2
        ? ""
        : String.format(
            " (%.2f sent apart: this lab's emitter, late on its host, wrote the rest together)",
            framesSentApartPerRead);
  }

  /** Frames left whenever they came: one per release, and none waited. */
  public boolean streamed() {
    return !drained
        && streams > 0
        && releaseFrames < 2
        && waitP50 < HELD_MS
        && framesSentApartPerRead <= STREAMED_FRAMES_PER_READ;
  }

  /** Frames per read (sent apart) a streamed cell stays within: Nagle's small merges go over. */
  public static final double STREAMED_FRAMES_PER_READ = 1.25;

  /**
   * Every frame left on its own and none waited: whatever buffer the target has, a frame of this
   * size does not stay in it. {@link #streamed} and more: a short stream's reader may read two such
   * frames together now and then (24 frames of 1 KiB in 18 reads), which says nothing of the
   * target.
   */
  public boolean passedAtOnce() {
    // releases between the first and the last, each of one frame: a stream held once has none (and
    // no figures for them)
    return !drained
        && streams > 0
        && releasesPerStream > 0
        && releaseFrames >= 1
        && releaseFrames < 2
        && waitP50 < HELD_MS;
  }

  /** Frames were held before some release (not counting a drain at the end). */
  public boolean held() {
    return !drained
        && streams > 0
        && releasesPerStream > 0
        && (releaseFrames >= 2 || waitP50 >= HELD_MS);
  }

  /** Bytes a release may carry before its timing stops saying much about the mechanism's clock. */
  static final double LARGE_RELEASE_BYTES = 65536;

  /**
   * Its releases carry more than 64 KiB: writing one takes milliseconds, and on a busy host the
   * proxy stops reading its upstream while its downstream drains, so the next frames queue in the
   * kernel before the proxy sees them. Their gaps and the oldest frame's wait then run late of the
   * mechanism's own clock (a 398 ms hold's 800 KB releases: the oldest frame waited 508 ms).
   */
  public boolean largeReleases() {
    return releaseFrames * frameBytes > LARGE_RELEASE_BYTES;
  }

  /**
   * The oldest frame's wait was the same in most releases (a hold counted from it), not spread over
   * the interval. The lower half decides (p10 to p50): a kernel cork holds ~210 ms most of the time
   * and now and then ~50 ms longer, which is a tail, not a spread.
   */
  public boolean steadyWait() {
    return waitP50 - waitP10 <= Math.max(3, 0.1 * waitP50);
  }

  /**
   * Released once before the end and not again (a hold longer than half the stream): the first
   * release, left out of the release statistics because it carries the response head, is all the
   * evidence, and its wait is the first frame's (from its emit time, so not the request's own time
   * to reach the emitter). Late in the stream too: a release 100 ms before the end of a 1200 ms
   * stream (a compressor's 767 B of output reached by its 22nd event of 25) is held once, not
   * streamed; a release that came only with the end is {@link #drained} instead, which is judged
   * first.
   */
  public boolean heldOnce() {
    return !drained
        && streams > 0
        && releasesPerStream == 0
        && firstWaitMs >= HELD_MS
        && firstWaitMs < streamMs();
  }

  /** One line of evidence. */
  public String describe() {
    if (drained) {
      return String.format(
          "%s: every stream (%d frames, %.0f B, %.0f ms) arrived in one piece at its end",
          label, framesPerStream, totalBytes(), streamMs());
    }
    if (heldOnce()) {
      return String.format(
          "%s: released once before its end, the first frame after waiting %.1f ms, then the rest at the "
              + "end (%.0f ms)",
          label, firstWaitMs, streamMs());
    }
    String framesSpread =
        releaseFramesP10 > 0
            ? String.format("p10 %.0f, p90 %.0f", releaseFramesP10, releaseFramesP90)
            : "p50";
    return String.format(
            "%s: %.2f frames/read%s; %.1f releases per stream of %.0f frames (%s); the oldest frame waited "
                + "%.1f ms (p10 %.1f, p90 %.1f); %.1f ms between releases (p10 %.1f, p90 %.1f); %.0f B per frame on the wire, %.0f B per release (p10 %.0f, p90 %.0f)",
            label,
            framesPerRead,
            sentTogether(),
            releasesPerStream,
            releaseFrames,
            framesSpread,
            waitP50,
            waitP10,
            waitP90,
            gapP50,
            gapP10,
            gapP90,
            frameBytes,
            releaseBytesP50,
            releaseBytesP10,
            releaseBytesP90)
        + String.format("; the first frame waited %.1f ms", firstWaitMs)
        + (coding == null ? "" : " (" + coding + ": compressed bytes as received)")
        + (thinks()
            ? String.format(
                "; first body byte after %.1f ms, first frame after %.1f ms", firstBodyMs, ttftMs)
            : "");
  }
}
