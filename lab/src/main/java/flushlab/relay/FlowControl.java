package flushlab.relay;

import io.netty.channel.Channel;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Back-pressure from the client side to upstream reads, written once for every relay. Upstream is
 * read while nobody holds it; any holder pauses it: the client's socket being full, a delaying
 * shaper's queue over its watermark, or a bounded buffer at its cap. Confined to the connection's
 * event loop.
 */
public final class FlowControl {

  /** Pauses or resumes the socket whose reads this controls. */
  public interface Valve {
    void pause();

    void resume();

    /**
     * Auto-read off to pause, on to resume (unless {@code mayResume} says the connection is done).
     */
    static Valve autoRead(Channel channel, BooleanSupplier mayResume) {
      return new Valve() {
        @Override
        public void pause() {
          channel.config().setAutoRead(false);
        }

        @Override
        public void resume() {
          if (mayResume.getAsBoolean()) channel.config().setAutoRead(true);
        }
      };
    }
  }

  /** Whoever holds upstream paused: the client writer, a delaying shaper, a bounded buffer. */
  private final Set<Object> holders = Collections.newSetFromMap(new IdentityHashMap<>());

  private Valve valve;
  private boolean paused;
  private final AtomicLong relayPauses;

  public FlowControl() {
    this(new AtomicLong());
  }

  /**
   * @param relayPauses the relay-wide count of upstream pauses, added to on every pause
   */
  public FlowControl(AtomicLong relayPauses) {
    this.relayPauses = relayPauses;
  }

  public void attach(Valve v) {
    this.valve = v;
    apply();
  }

  public void hold(Object h) {
    if (holders.add(h)) apply();
  }

  public void release(Object h) {
    if (holders.remove(h)) apply();
  }

  private void apply() {
    if (valve == null) return;
    boolean shouldPause = !holders.isEmpty();
    if (shouldPause && !paused) {
      paused = true;
      relayPauses.incrementAndGet();
      valve.pause();
    } else if (!shouldPause && paused) {
      paused = false;
      valve.resume();
    }
  }
}
