package flushlab.core;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Keeps a lab process's emitters and relays on event loops of their own, so that no thread writes
 * for both.
 *
 * <p>Why it matters: a corked socket written by a thread that also writes another socket in turn
 * (the emitter's frame, then the relay passing it on) let its bytes go every 17 writes, which is
 * not what the cork does. The likeliest reading, from the kernel's source: Linux appends each
 * send() to the socket's last packet buffer from a page fragment it keeps per thread, so with the
 * other socket's writes in between, each write becomes a fragment of its own, and a packet buffer
 * holds at most 17 (MAX_SKB_FRAGS); a full buffer that is not the last in the queue is sent, cork
 * or not (Nagle likewise). Measured with `flushlab map --target` on a cork relay (2026-12-04): the
 * model replayed in the map's process, its loop shared with the emitter (strace: one thread sending
 * on both sockets), released 17 frames of 66 B every 34 ms where the relay alone held 106 frames
 * for 211 ms; with `--shape cork`, whose model had landed on a loop of its own, it held 106. Vert.x
 * hands out loops in turn, so which case a run got depended on how many contexts had been made
 * before it.
 *
 * <p>A relay's connections all write on its loop, as a proxy's worker thread does for its clients;
 * that stays as it is. Only the emitter (the measured source) and the relays are kept apart, and
 * only where the process has a loop to spare: a process with one loop, or an emitter listening on
 * every loop, keeps the loop it was given.
 */
public final class LoopPlacement {
  /** What writes on a loop: the measured source, or a relay passing its frames on. */
  public enum Role {
    EMITTER,
    RELAY;

    Role other() {
      return this == EMITTER ? RELAY : EMITTER;
    }
  }

  /** Per Vert.x instance: how many emitters and relays each loop carries. */
  private static final Map<Vertx, Map<EventLoop, int[]>> PLACED = new WeakHashMap<>();

  private LoopPlacement() {}

  /**
   * Where a listener of {@code role} runs: its {@link #context}, until {@link #release}d (once; a
   * second release does nothing). An unplaced one ({@link #unplaced}) releases nothing.
   */
  public static final class Placed {
    private final Context context;
    private Role role;

    private Placed(Context context, Role role) {
      this.context = context;
      this.role = role;
    }

    public Context context() {
      return context;
    }

    /** {@code role} no longer writes on this loop. */
    public void release() {
      synchronized (LoopPlacement.class) {
        if (role == null) return;
        Map<EventLoop, int[]> counts = PLACED.get(((ContextInternal) context).owner());
        int[] c = counts == null ? null : counts.get(((ContextInternal) context).nettyEventLoop());
        if (c != null && c[role.ordinal()] > 0) c[role.ordinal()]--;
        role = null;
      }
    }
  }

  /**
   * The context {@code role} should run on: {@code given} when no one of the other role writes on
   * its loop, else a new context on the loop of this process that carries none of the other role
   * and the fewest of this one (the first such, in the group's order); {@code given} when every
   * loop carries the other role. Counted until released.
   */
  public static synchronized Placed place(Context given, Role role) {
    ContextInternal ctx = (ContextInternal) given;
    VertxInternal vertx = ctx.owner();
    Map<EventLoop, int[]> counts = PLACED.computeIfAbsent(vertx, v -> new HashMap<>());
    EventLoop chosen = choose(loops(vertx), ctx.nettyEventLoop(), role, counts);
    counts.computeIfAbsent(chosen, l -> new int[2])[role.ordinal()]++;
    return new Placed(
        chosen == ctx.nettyEventLoop()
            ? given
            : vertx.contextBuilder().withEventLoop(chosen).build(),
        role);
  }

  /**
   * {@code context} as it is, counted nowhere: for listeners on every loop, or Vert.x's own TLS
   * server.
   */
  public static Placed unplaced(Context context) {
    return new Placed(context, null);
  }

  /**
   * The loop for {@code role}: {@code given} unless the other role writes there and some loop has
   * none of it.
   */
  static <L> L choose(List<L> loops, L given, Role role, Map<L, int[]> counts) {
    if (count(counts, given, role.other()) == 0) return given;
    L best = null;
    for (L l : loops) {
      if (count(counts, l, role.other()) > 0) continue;
      if (best == null || count(counts, l, role) < count(counts, best, role)) best = l;
    }
    return best == null ? given : best;
  }

  private static <L> int count(Map<L, int[]> counts, L loop, Role role) {
    int[] c = counts.get(loop);
    return c == null ? 0 : c[role.ordinal()];
  }

  private static List<EventLoop> loops(VertxInternal vertx) {
    List<EventLoop> all = new ArrayList<>();
    for (EventExecutor e : vertx.nettyEventLoopGroup()) all.add((EventLoop) e);
    return all;
  }
}
