package flushlab.relay.shaper;

import flushlab.core.Named;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.List;

/**
 * HTTP/2's flow control as its sender lives it: at most {@code window} bytes may be sent beyond
 * what the receiver has granted back with WINDOW_UPDATE, and the rest waits. The receiver here is
 * the client side of the relay: it consumes what passes at once, and grants it back at once, once
 * {@code bytes} are unacknowledged, or {@code after} the first unacknowledged byte (receivers batch
 * their updates); each update reaches the sender {@code rtt} later. A stream slower than about
 * window / (rtt + after) never meets the window; a faster one leaves in bursts of what each update
 * grants, its backlog growing, which is the stall users see behind small windows on long paths.
 *
 * <p>The window counts the response bytes the relay forwards (head and chunk framing included), as
 * an HTTP/2 sender counts DATA payload; one window per relay connection, as HTTP/2's
 * connection-level window. A burst splits a frame where the window ends, as a DATA frame may.
 * Nothing is lost: what waits is forwarded, in order, as grants arrive, and the end of a response
 * or the upstream's close keep their place behind it. More than {@link #HIGH_WATERMARK_BYTES}
 * waiting pauses upstream reads (the sender blocks), so the wait is bounded in memory.
 */
public final class FlowWindow extends Shaper {
  public static final Param WINDOW =
      Param.size(
          "window",
          null,
          1,
          (1L << 31) - 1,
          "bytes the sender may have unacknowledged (HTTP/2's initial window is 65535)");
  public static final Param UPDATE =
      Param.choice(
          "update",
          Update.AT_ONCE,
          Update.class,
          "when the receiver sends WINDOW_UPDATE for what it consumed: at once; once bytes= are unacknowledged; or after= "
              + "from the first unacknowledged byte");
  public static final Param BYTES =
      Param.size(
              "bytes",
              null,
              1,
              (1L << 31) - 1,
              "update=bytes: unacknowledged bytes that make the receiver send its update (at most the window; default half of it)")
          .optional();
  public static final Param AFTER =
      Param.duration(
          "after",
          "10ms",
          1_000_000L,
          60_000_000_000L,
          "update=timer: how long the receiver waits from the first unacknowledged byte");
  public static final Param RTT =
      Param.duration(
          "rtt",
          "0ms",
          0,
          60_000_000_000L,
          "how long an update takes to reach the sender (the path's round trip)");

  public static final ShaperType TYPE =
      new ShaperType(
          "window",
          false,
          "HTTP/2 flow control: at most window= bytes unacknowledged; the rest waits for the receiver's WINDOW_UPDATE (at once, "
              + "after bytes=, or after a timer), which takes rtt= to arrive",
          List.of(WINDOW, UPDATE, BYTES, AFTER, RTT),
          "window=64KiB,rtt=50ms",
          p -> () -> new FlowWindow(p));

  static final long HIGH_WATERMARK_BYTES = 1L << 20;
  static final long LOW_WATERMARK_BYTES = 256L << 10;

  /** When the receiver grants what it consumed. */
  public enum Update implements Named {
    AT_ONCE,
    BYTES,
    TIMER
  }

  private final long window;
  private final Update update;
  private final long updateBytes;
  private final long afterNanos;
  private final long rttNanos;

  private final ArrayDeque<Chunk> waiting = new ArrayDeque<>();
  private long waitingBytes;

  /** Bytes the sender may still send. */
  private long credit;

  /** Bytes consumed and not yet granted back (the receiver's side). */
  private long unacknowledged;

  private ScheduledFuture<?> updateTimer;
  private final ArrayDeque<ScheduledFuture<?>> inFlightUpdates = new ArrayDeque<>();
  private boolean released;

  FlowWindow(Params p) {
    this.window = p.get(WINDOW);
    this.update = p.choice(UPDATE, Update.class);
    this.updateBytes = p.has(BYTES) ? p.get(BYTES) : Math.max(1, window / 2);
    if (p.has(BYTES) && update != Update.BYTES) {
      throw new ShaperSpecException(
          "shaper 'window': bytes= applies to update=bytes only (update is " + update.text() + ")");
    }
    if (updateBytes > window) {
      // the receiver would wait for more than the sender may ever send: both stop for good
      throw new ShaperSpecException(
          "shaper 'window': bytes="
              + updateBytes
              + "B is larger than window="
              + window
              + "B, so the update would never be sent (valid: 1B up to the window)");
    }
    this.afterNanos = p.get(AFTER);
    this.rttNanos = p.get(RTT);
    this.credit = window;
  }

  @Override
  public void accept(Chunk c) {
    if (released) return;
    waiting.add(c);
    waitingBytes += c.length();
    if (waitingBytes > HIGH_WATERMARK_BYTES) ctx.holdUpstream(this);
    send();
  }

  /**
   * Sends what the window allows, in order; items that carry no bytes go as soon as everything
   * before them has.
   */
  private void send() {
    while (!waiting.isEmpty()) {
      Chunk c = waiting.peek();
      if (c.kind != Chunk.Kind.DATA || c.length() == 0) {
        next.accept(waiting.poll());
        continue;
      }
      if (credit <= 0) break;
      int n = (int) Math.min(credit, c.length());
      if (n == c.length()) {
        next.accept(waiting.poll());
      } else {
        // the window ends inside this chunk: its head goes now, its tail waits for the next update
        next.accept(c.withBytes(c.bytes.slice(0, n).copy()));
        waiting.poll();
        waiting.addFirst(c.withBytes(c.bytes.slice(n, c.length()).copy()));
      }
      waitingBytes -= n;
      credit -= n;
      consumed(n);
    }
    if (waitingBytes < LOW_WATERMARK_BYTES) ctx.releaseUpstream(this);
  }

  /** The receiver took n bytes: it grants them back as its update policy says. */
  private void consumed(long n) {
    unacknowledged += n;
    switch (update) {
      case AT_ONCE -> grant();
      case BYTES -> {
        if (unacknowledged >= updateBytes) grant();
      }
      case TIMER -> {
        if (updateTimer == null) {
          updateTimer =
              ctx.schedule(
                  () -> {
                    updateTimer = null;
                    if (released) return;
                    grant();
                    send();
                  },
                  afterNanos);
        }
      }
    }
  }

  /** Sends a WINDOW_UPDATE for everything unacknowledged; it reaches the sender rtt later. */
  private void grant() {
    long g = unacknowledged;
    if (g == 0) return;
    unacknowledged = 0;
    if (rttNanos == 0) {
      credit += g;
      return; // the caller's loop goes on sending
    }
    inFlightUpdates.add(
        ctx.schedule(
            () -> {
              inFlightUpdates.poll();
              if (released) return;
              credit += g;
              send();
            },
            rttNanos));
  }

  @Override
  public void release() {
    released = true;
    if (updateTimer != null) updateTimer.cancel(false);
    for (ScheduledFuture<?> f : inFlightUpdates) f.cancel(false);
    inFlightUpdates.clear();
    waiting.clear();
  }
}
