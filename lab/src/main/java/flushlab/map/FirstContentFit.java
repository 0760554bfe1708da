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

  static FlushTrigger answer(String target, List<CellEvidence> thinking, List<CellEvidence> streamed, List<String> evidence) {
    for (CellEvidence c : thinking) {
      if (Double.isNaN(c.firstBodyMs()) || Double.isNaN(c.ttftMs()) || c.keepAliveMs() <= 0) continue;
      boolean commentsWereDue = c.thinkMs() >= 3 * c.keepAliveMs();
      boolean nothingBefore = c.firstBodyMs() >= 0.8 * c.thinkMs() && c.ttftMs() - c.firstBodyMs() <= Math.max(5, 0.05 * c.thinkMs());
      if (!commentsWereDue || !nothingBefore) {
        evidence.add(String.format("first-content check: through a %.0f ms think the first body byte came after %.1f ms (comments every "
            + "%.0f ms), the first frame after %.1f ms: what came before it was not held", c.thinkMs(), c.firstBodyMs(), c.keepAliveMs(),
            c.ttftMs()));
        return null;
      }
      evidence.add(String.format("first-content check: through a %.0f ms think with comments every %.0f ms, nothing arrived before "
          + "the first frame (first body byte %.1f ms, first frame %.1f ms)", c.thinkMs(), c.keepAliveMs(), c.firstBodyMs(), c.ttftMs()));
      return new FlushTrigger(target, TriggerKind.FIRST_CONTENT, null, null, null, null, String.format("first-content: the stream "
          + "flows once it has begun, but nothing sent before its first frame arrives before it: through a %.0f ms think the "
          + "comments sent every %.0f ms (about %d) were held and came with the first frame (%.1f ms); a client's \"thinking\" indicator and "
          + "an idle timeout both see silence (%s)", c.thinkMs(), c.keepAliveMs(), (int) (c.thinkMs() / c.keepAliveMs()) - 1, c.ttftMs(),
          Fits.across(streamed)), evidence, List.of());
    }
    return null;
  }
}
