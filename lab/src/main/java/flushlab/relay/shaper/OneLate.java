package flushlab.relay.shaper;

import java.util.List;

/**
 * Each write is held until the next one arrives: the "one event late" hold of HTTP.jl, express-sse
 * and Spring Cloud Gateway reports, and of HAProxy's compression (each event leaves when the next
 * pushes it out). Every event reaches the client one interval late, and the last only with the end
 * of the response, so a model's final token waits for the stream to close. The head passes at once;
 * what is held is one upstream read, counted against the relay's cap.
 */
public final class OneLate extends Shaper {
  public static final ShaperType TYPE =
      new ShaperType(
          "one-late",
          false,
          "a proxy or framework that writes each chunk only when the next arrives: every event one interval late, the last with the end",
          List.of(),
          "one-late",
          p -> OneLate::new);

  private final HeadBoundary head = new HeadBoundary();
  private Chunk held;

  @Override
  public void accept(Chunk c) {
    switch (c.kind) {
      case RESPONSE_START -> {
        releaseHeld();
        head.start();
        next.accept(c);
      }
      case DATA -> {
        int h = head.headBytes(c);
        if (h == c.length()) {
          next.accept(c);
          return;
        }
        if (h > 0) next.accept(c.withBytes(c.bytes.slice(0, h).copy()));
        Chunk body = h == 0 ? c : c.withBytes(c.bytes.slice(h, c.length()).copy());
        if (!ctx.holdBytes(body.length())) {
          ctx.fail(ctx.overRelayCap(body.length()));
          return;
        }
        releaseHeld(); // the next write has come: the one before it leaves now
        held = body;
      }
      case RESPONSE_END, CLOSE, RESET -> {
        releaseHeld();
        next.accept(c);
      }
      default -> next.accept(c);
    }
  }

  private void releaseHeld() {
    if (held == null) return;
    Chunk h = held;
    held = null;
    ctx.releaseBytes(h.length());
    next.accept(h);
  }

  @Override
  public void release() {
    held = null;
  }
}
