package flushlab.relay.shaper;

import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * The response head is withheld until the first body byte arrives (Caddy's {@code encode}, poem,
 * Spring Cloud Gateway): a client then sees the head and the first event at the same moment, so
 * time to the head is no longer the server's answer time but its first token's, and a long think
 * looks like a server that has not answered at all. A response without a body sends its head at its
 * end.
 */
public final class HeadOnFirstByte extends Shaper {
  public static final ShaperType TYPE =
      new ShaperType(
          "head-on-first-byte",
          false,
          "a proxy that sends the response head only with the first body byte (Caddy encode, poem, Spring Cloud Gateway)",
          List.of(),
          "head-on-first-byte",
          p -> HeadOnFirstByte::new);

  private final HeadBoundary head = new HeadBoundary();
  private Buffer heldHead;
  private long heldSince;

  /**
   * A response's head begins with the first byte after the one before it ended (or the connection's
   * first). The relay marks a response's start only with the piece that completes its head, after
   * any earlier piece of it went by: the start mark neither releases nor restarts the head being
   * held (a head split inside its blank line was once let through in part, and its end then looked
   * for in the body).
   */
  public HeadOnFirstByte() {
    head.start();
  }

  @Override
  public void accept(Chunk c) {
    switch (c.kind) {
      case RESPONSE_START -> next.accept(c);
      case DATA -> {
        if (!head.inHead() && heldHead == null) {
          next.accept(c);
          return;
        }
        int h = head.headBytes(c);
        if (heldHead == null) {
          heldHead = Buffer.buffer(256);
          heldSince = c.arrivalNanos;
        }
        if (heldHead.length() + h > HEAD_CAP) {
          ctx.fail("head-on-first-byte: a response head over " + HEAD_CAP + " bytes");
          return;
        }
        heldHead.appendBuffer(c.bytes, 0, h);
        if (h < c.length()) {
          // the first body byte: head and body leave together
          Buffer both = heldHead.appendBuffer(c.bytes, h, c.length() - h);
          heldHead = null;
          next.accept(Chunk.data(both, heldSince));
        }
      }
      case RESPONSE_END, CLOSE, RESET -> {
        releaseHead();
        head.start(); // the next response's head, on a kept-alive connection
        next.accept(c);
      }
      default -> next.accept(c);
    }
  }

  /**
   * Heads larger than this are not a response this shaper should hold (nginx's default
   * large_client_header_buffers is 8 KiB).
   */
  static final int HEAD_CAP = 64 * 1024;

  private void releaseHead() {
    if (heldHead == null) return;
    Buffer b = heldHead;
    heldHead = null;
    next.accept(Chunk.data(b, heldSince));
  }

  @Override
  public void release() {
    heldHead = null;
  }
}
