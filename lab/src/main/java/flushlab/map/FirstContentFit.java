package flushlab.map;

import java.util.List;

/**
 * First content: frames stream, but nothing sent before the first of them arrives before it. The
 * think cell sends SSE comments through a think; a target that passes them has its first body byte
 * one comment interval after the head, one that holds everything until the first content has it
 * with the first frame, a whole think later. Asked only of a target whose other cells all streamed.
 */
final class FirstContentFit {
  private FirstContentFit() {}

  /**
   * Whether nothing of a think cell arrived before its first frame: the first body byte came late
   * in the think (at 80 % of it or after) and with the first frame. Null when the cell cannot say
   * (no body byte or frame seen, or no comments sent through the think).
   */
  static Boolean nothingBeforeTheFirstFrame(CellEvidence c) {
    if (Double.isNaN(c.firstBodyMs()) || Double.isNaN(c.ttftMs()) || c.keepAliveMs() <= 0)
      return null;
    return c.firstBodyMs() >= 0.8 * c.thinkMs()
        && c.ttftMs() - c.firstBodyMs() <= Math.max(5, 0.05 * c.thinkMs());
  }

  static FlushTrigger answer(
      String target,
      List<CellEvidence> thinking,
      List<CellEvidence> streamed,
      List<String> evidence) {
    for (CellEvidence c : thinking) {
      Boolean held = nothingBeforeTheFirstFrame(c);
      if (held == null) continue;
      boolean commentsWereDue = c.thinkMs() >= 3 * c.keepAliveMs();
      boolean nothingBefore = held;
      if (!commentsWereDue || !nothingBefore) {
        evidence.add(
            String.format(
                "first-content check: through a %.0f ms think the first body byte came after %.1f ms (comments every "
                    + "%.0f ms), the first frame after %.1f ms: what came before it was not held",
                c.thinkMs(), c.firstBodyMs(), c.keepAliveMs(), c.ttftMs()));
        return null;
      }
      evidence.add(
          String.format(
              "first-content check: through a %.0f ms think with comments every %.0f ms, nothing arrived before "
                  + "the first frame (first body byte %.1f ms, first frame %.1f ms)",
              c.thinkMs(), c.keepAliveMs(), c.firstBodyMs(), c.ttftMs()));
      return new FlushTrigger(
          target,
          TriggerKind.FIRST_CONTENT,
          null,
          null,
          null,
          null,
          String.format(
              "first-content: the stream "
                  + "flows once it has begun, but nothing sent before its first frame arrives before it: through a %.0f ms think the "
                  + "comments sent every %.0f ms (about %d) were held and came with the first frame (%.1f ms); a client's \"thinking\" indicator and "
                  + "an idle timeout both see silence (%s)",
              c.thinkMs(),
              c.keepAliveMs(),
              (int) (c.thinkMs() / c.keepAliveMs()) - 1,
              c.ttftMs(),
              Fits.across(streamed)),
          evidence,
          List.of());
    }
    return null;
  }

  /**
   * A holding stage that lets what it holds go on its own clock (a hold or periodic timer,
   * one-late), then first-content: alone, such a stage would have let the think's first comments go
   * well before the think ended; if nothing arrived before the first frame, something after it (or
   * before it) held them for the first content. Either order does the same to every cell (both hold
   * the comments until the first frame, then the timer or one-late holds that), so the model names
   * one and the other as alike. A stage that would have held the comments through the think anyway
   * (a timer longer than it) leaves the think cell unable to tell, and the answer is the stage
   * alone.
   *
   * @param holding the answer the other cells gave
   * @param firstReleaseMs when that stage alone would have let the first comment go, from the
   *     think's start
   */
  static FlushTrigger after(
      FlushTrigger holding,
      double firstReleaseMs,
      List<CellEvidence> thinking,
      List<String> evidence) {
    for (CellEvidence c : thinking) {
      Boolean held = nothingBeforeTheFirstFrame(c);
      if (held == null) continue;
      double couldTell = 0.8 * c.thinkMs();
      boolean nothingBefore = held;
      if (!nothingBefore) {
        evidence.add(
            String.format(
                "first-content check: through a %.0f ms think the first body byte came after %.1f ms, before the first "
                    + "frame (%.1f ms): nothing held the comments for the first content",
                c.thinkMs(), c.firstBodyMs(), c.ttftMs()));
        return holding;
      }
      if (c.keepAliveMs() + firstReleaseMs >= couldTell) {
        evidence.add(
            String.format(
                "first-content check: through a %.0f ms think nothing arrived before the first frame (%.1f ms), as "
                    + "%s alone would hold it too: this cell cannot tell whether first-content follows",
                c.thinkMs(), c.ttftMs(), holding.kind().text()));
        return holding;
      }
      evidence.add(
          String.format(
              "first-content check: through a %.0f ms think with comments every %.0f ms, nothing arrived before the "
                  + "first frame (first body byte %.1f ms, first frame %.1f ms), where %s alone lets the first comment go after ~%.0f ms",
              c.thinkMs(),
              c.keepAliveMs(),
              c.firstBodyMs(),
              c.ttftMs(),
              holding.kind().text(),
              c.keepAliveMs() + firstReleaseMs));
      return holding.followedBy(
          TriggerKind.FIRST_CONTENT,
          holding.verdict()
              + "; then first-content: nothing sent before the first "
              + String.format(
                  "frame arrives before it (through a %.0f ms think the comments came with the first frame, %.1f ms)",
                  c.thinkMs(), c.ttftMs()));
    }
    return holding;
  }

  /**
   * A byte threshold and first-content: through a think with comments every millisecond, which pass
   * the threshold long before the think ends, a threshold alone lets them go; if nothing arrived
   * before the first frame, first-content held them. Which one is in front shows in when the first
   * frame came: in front, first-content lets the held comments and the frame go together, past the
   * threshold, at once; behind the threshold, the frame waits in the threshold until it fills, or
   * the stream ends. A late first frame names first-content behind; one at once names it in front,
   * and the model names the other order alike, since a threshold the comments had nearly filled
   * lets its first frame go at once too. A think whose comments do not pass the threshold with room
   * cannot tell, and the answer is the threshold alone.
   */
  static FlushTrigger aroundThreshold(
      FlushTrigger threshold, List<CellEvidence> thinking, List<String> evidence) {
    for (CellEvidence c : thinking) {
      Boolean held = nothingBeforeTheFirstFrame(c);
      if (held == null || c.keepAliveMs() > 1) continue;
      double passedMs = threshold.thresholdBytes() / Discovery.COMMENT_BYTES + c.keepAliveMs();
      if (!held) {
        evidence.add(
            String.format(
                "first-content check: through a %.0f ms think with comments every %.0f ms the first body byte came after "
                    + "%.1f ms, before the first frame (%.1f ms): nothing held the comments for the first content",
                c.thinkMs(), c.keepAliveMs(), c.firstBodyMs(), c.ttftMs()));
        return threshold;
      }
      if (passedMs >= 0.8 * c.thinkMs()) {
        evidence.add(
            String.format(
                "first-content check: through a %.0f ms think nothing arrived before the first frame, but its comments "
                    + "pass %.0f B only after ~%.0f ms: this cell cannot tell whether first-content is there",
                c.thinkMs(), threshold.thresholdBytes(), passedMs));
        return threshold;
      }
      // in front, the frame goes at once; behind, it waits for the stream's end (its other frames
      // cannot fill the threshold): split at half the way, not at one interval, which a loaded
      // host's 12.4 ms for a frame in front once passed (a fresh-clone suite, 2026-12-05)
      double atTheEndMs = (c.framesPerStream() - 1) * c.intervalMs();
      boolean inFront = c.ttftMs() - c.thinkMs() < Math.max(c.intervalMs(), atTheEndMs / 2);
      String seen =
          String.format(
              "through a %.0f ms think with comments every %.0f ms (past %.0f B after ~%.0f ms), nothing arrived before the "
                  + "first frame, which came %.1f ms after the think",
              c.thinkMs(),
              c.keepAliveMs(),
              threshold.thresholdBytes(),
              passedMs,
              c.ttftMs() - c.thinkMs());
      evidence.add(
          "first-content check: "
              + seen
              + (inFront
                  ? ", with the comments: first-content in front of the threshold (or behind it, "
                      + "if the comments had nearly filled it)"
                  : ", held in the threshold: first-content behind it"));
      String both =
          threshold.verdict()
              + (inFront ? "; before it, first-content: " : "; then first-content: ")
              + "nothing sent before the first frame arrives before it ("
              + seen
              + ")";
      return inFront
          ? threshold.precededBy(TriggerKind.FIRST_CONTENT, both)
          : threshold.followedBy(TriggerKind.FIRST_CONTENT, both);
    }
    return threshold;
  }
}
