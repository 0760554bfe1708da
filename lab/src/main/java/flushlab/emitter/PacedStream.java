package flushlab.emitter;

import flushlab.core.LabClock;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Writes the events of one stream on absolute deadlines: frame i is due at start + think +
 * i x interval, so a late frame never pushes the later ones back (no drift accumulates).
 *
 * <p>Threading: everything here runs on the channel's event loop, so a write is a synchronous
 * non-blocking send(); no locking. The emit timestamp stamped into a frame is read right before
 * that send; when the channel is not writable (the kernel's send buffer is full) the stream waits
 * for it instead of queueing, because a queued frame would carry a timestamp older than the moment
 * its bytes reached the kernel. The audit records when each write completed.
 */
final class PacedStream implements Runnable {
  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};
  /** Unpaced (bulk) streams write at most this many frames per event-loop turn. */
  private static final int BULK_FRAMES_PER_TURN = 64;

  interface Done {
    void streamEnded(boolean complete);
  }

  private final Channel channel;
  private final FrameSource source;
  private final PacingAudit audit;
  private final boolean chunked;
  private final long intervalNanos;
  private final long firstDueNanos;
  private final Done done;
  private final byte[] scratch;
  private int next;
  private boolean waitingForWritable;
  private boolean ended;
  private ScheduledFuture<?> pending;

  PacedStream(Channel channel, FrameSource source, PacingAudit audit, boolean chunked,
      long startNanos, long thinkNanos, long intervalNanos, Done done) {
    this.channel = channel;
    this.source = source;
    this.audit = audit;
    this.chunked = chunked;
    this.intervalNanos = intervalNanos;
    this.firstDueNanos = startNanos + thinkNanos;
    this.done = done;
    this.scratch = new byte[16 + source.maxEventBytes() + 2 + source.trailer().length + LAST_CHUNK.length];
  }

  void start() {
    scheduleAt(firstDueNanos);
  }

  /** The channel became writable again: resume a stream that was waiting for it. */
  void writable() {
    if (waitingForWritable && !ended) {
      waitingForWritable = false;
      run();
    }
  }

  /** The peer went away: stop without writing. */
  void cancel() {
    if (pending != null) pending.cancel(false);
    finish(false);
  }

  @Override
  public void run() {
    pending = null;
    int burst = 0;
    while (!ended) {
      if (!channel.isActive()) {
        finish(false);
        return;
      }
      if (!channel.isWritable()) {
        audit.recordBackpressureWait();
        waitingForWritable = true;
        return;
      }
      writeFrame();
      if (ended || next == source.frames()) return; // the last write may still be completing
      long due = dueOf(next);
      if (intervalNanos > 0) {
        scheduleAt(due);
        return;
      }
      if (++burst == BULK_FRAMES_PER_TURN) {
        channel.eventLoop().execute(this); // let other streams on this loop have a turn
        return;
      }
    }
  }

  private long dueOf(int index) {
    return firstDueNanos + intervalNanos * index;
  }

  private void scheduleAt(long dueNanos) {
    long delay = dueNanos - System.nanoTime();
    if (delay <= 0) {
      channel.eventLoop().execute(this);
    } else {
      pending = channel.eventLoop().schedule(this, delay, TimeUnit.NANOSECONDS);
    }
  }

  private void writeFrame() {
    final int index = next++;
    final boolean last = next == source.frames();
    int bodyStart = chunked ? 12 : 0; // room for the chunk-size line, filled in below
    long emitEpoch = LabClock.epochNanos();
    int len = source.write(index, emitEpoch, scratch, bodyStart);
    if (last) {
      byte[] t = source.trailer();
      System.arraycopy(t, 0, scratch, bodyStart + len, t.length);
      len += t.length;
    }
    ByteBuf buf = channel.alloc().directBuffer(len + 16 + (last ? LAST_CHUNK.length : 0));
    if (chunked) {
      writeHex(buf, len);
      buf.writeBytes(CRLF);
    }
    buf.writeBytes(scratch, bodyStart, len);
    if (chunked) {
      buf.writeBytes(CRLF);
      if (last) buf.writeBytes(LAST_CHUNK);
    }
    final long due = dueOf(index);
    ChannelFuture f = channel.writeAndFlush(buf);
    if (f.isDone()) {
      audit.recordWritten(index, due, System.nanoTime());
    } else {
      f.addListener(x -> audit.recordWritten(index, due, System.nanoTime()));
    }
    if (last) {
      if (f.isDone()) {
        finish(f.isSuccess());
      } else {
        f.addListener(x -> finish(x.isSuccess()));
      }
    }
  }

  private void finish(boolean complete) {
    if (ended) return;
    ended = true;
    audit.finish(complete);
    done.streamEnded(complete);
  }

  private static void writeHex(ByteBuf buf, int v) {
    int shift = 28;
    while (shift > 0 && ((v >>> shift) & 0xf) == 0) shift -= 4;
    for (; shift >= 0; shift -= 4) {
      int d = (v >>> shift) & 0xf;
      buf.writeByte(d < 10 ? '0' + d : 'a' + d - 10);
    }
  }
}
