package flushlab.emitter;

import flushlab.coding.StreamCompressor;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A paced stream's body through a compressor (for a request that accepted the coding): the event's
 * bytes go in, and what the compressor's policy lets go now leaves as one chunk, or as DATA over
 * HTTP/2. Under a flush timer (ms:T) the timer is armed on the event loop after an event and sends
 * what the compressor then lets go. Confined to the stream's event loop.
 */
final class CompressedBody {
  /**
   * Bytes an encoder may add to what it was given when flushed (block headers, sync markers): far
   * more than any adds.
   */
  static final int ENCODER_SLACK = 64;

  private final Channel channel;
  private final StreamCompressor compressor;
  private final H2Body h2;
  private final boolean chunked;
  private final PacingAudit audit;
  private final BooleanSupplier ended;
  private ScheduledFuture<?> flushTimer;

  CompressedBody(
      Channel channel,
      StreamCompressor compressor,
      H2Body h2,
      boolean chunked,
      PacingAudit audit,
      BooleanSupplier ended) {
    this.channel = channel;
    this.compressor = compressor;
    this.h2 = h2;
    this.chunked = chunked;
    this.audit = audit;
    this.ended = ended;
  }

  /** What the encoder holds and may add when flushed: room a write must leave for it. */
  int held() {
    return compressor.ready() + ENCODER_SLACK;
  }

  /**
   * An event's bytes (or a piece of them, and the trailer at the end) into the compressor: what
   * leaves now, audited as the wire's bytes, or null when it holds everything.
   */
  ByteBuf write(byte[] b, int len, boolean endsEvent, boolean last, byte[] trailer) {
    compressor.write(b, 0, len, endsEvent && trailer.length == 0);
    if (trailer.length > 0) compressor.write(trailer, 0, trailer.length, true);
    if (last) {
      cancelTimer();
      compressor.finish();
    }
    ByteBuf buf = ready(last);
    if (buf != null) audit.recordFrameBytes(buf.readableBytes());
    if (endsEvent && compressor.wantsTimer() && flushTimer == null) {
      flushTimer =
          channel
              .eventLoop()
              .schedule(this::timerFired, compressor.policy().value(), TimeUnit.NANOSECONDS);
    }
    return buf;
  }

  /** A keep-alive comment, flushed: what leaves now, or null. */
  ByteBuf keepAlive(byte[] comment) {
    compressor.write(comment, 0, comment.length, true);
    return ready(false);
  }

  /** The stream ended: the timer and the encoder's native memory go. */
  void close() {
    cancelTimer();
    compressor.close();
  }

  private void timerFired() {
    flushTimer = null;
    if (ended.getAsBoolean() || !channel.isActive()) return;
    compressor.timerFired();
    ByteBuf buf = ready(false);
    if (buf != null) {
      audit.recordFrameBytes(buf.readableBytes());
      channel.writeAndFlush(buf, channel.voidPromise());
    }
  }

  private void cancelTimer() {
    if (flushTimer != null) {
      flushTimer.cancel(false);
      flushTimer = null;
    }
  }

  /**
   * The compressor's ready bytes as one chunk (plus the last chunk at the end), or as DATA over
   * HTTP/2; null when it holds everything, or (a timer's flush over HTTP/2) when the window does
   * not hold them yet: they then leave with the next event, which the run loop checks the window
   * for.
   */
  private ByteBuf ready(boolean last) {
    int n = compressor.ready();
    if (n == 0 && !last) return null;
    if (h2 != null) {
      if (!last && !h2.canSend(n)) return null;
      ByteBuf data = channel.alloc().directBuffer(n + H2ServerSession.framing(n));
      h2.data(data, compressor.buffer(), n, last);
      compressor.sent();
      return data;
    }
    ByteBuf buf = channel.alloc().directBuffer(n + 16 + ChunkFraming.LAST_CHUNK.length);
    if (n > 0) {
      ChunkFraming.piece(buf, compressor.buffer(), n, chunked);
      compressor.sent();
    }
    if (last && chunked) buf.writeBytes(ChunkFraming.LAST_CHUNK);
    return buf;
  }
}
