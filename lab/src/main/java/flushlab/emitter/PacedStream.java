package flushlab.emitter;

import flushlab.coding.StreamCompressor;
import flushlab.core.LabClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Writes the events of one stream on absolute deadlines: frame i is due at start + think + i x
 * interval, so a late frame never pushes the later ones back (no drift accumulates).
 *
 * <p>Threading: everything here runs on the channel's event loop, so a write is a synchronous
 * non-blocking send(); no locking. The emit timestamp stamped into a frame is read right before
 * that send; when the channel is not writable (the kernel's send buffer is full) the stream waits
 * for it instead of queueing, because a queued frame would carry a timestamp older than the moment
 * its bytes reached the kernel. The audit records when each write completed.
 *
 * <p>Memory: an event of up to {@link #MAX_WHOLE_EVENT_BYTES} is built in the event loop's one
 * scratch array and sent in one write; a larger one is sent as its head, then its tail in pieces of
 * that size, each only when the socket can take it. So what one stream holds is at most one piece
 * waiting in Netty's outbound buffer, whatever its frame size and however slowly its client reads
 * (a client that never reads costs the emitter a piece, not a 16 MiB frame).
 */
final class PacedStream implements Runnable, KeepAlives.Stream {
  /** The largest event written in one piece; larger ones are written in pieces of this size. */
  static final int MAX_WHOLE_EVENT_BYTES = 64 * 1024;

  /**
   * Room beside the event for the chunk framing and a trailer (the OpenAI finish chunk and [DONE]).
   */
  private static final int FRAMING_ROOM_BYTES = 8 * 1024;

  /** One scratch array per event-loop thread: an event is built and copied out within one call. */
  private static final FastThreadLocal<byte[]> SCRATCH =
      new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
          return new byte[MAX_WHOLE_EVENT_BYTES + FRAMING_ROOM_BYTES];
        }
      };

  private static final byte[] NONE = {};

  /** Unpaced (bulk) streams and large frames make at most this many writes per event-loop turn. */
  private static final int WRITES_PER_TURN = 64;

  interface Done {
    void streamEnded(boolean complete);
  }

  private final Channel channel;
  private final FrameSource source;
  private final PacingAudit audit;
  private final boolean chunked;

  /** The body through a compressor (for a request that accepted the coding), or null. */
  private final CompressedBody compressed;

  /** HTTP/2: the body as DATA within the windows, on its connection's session; null on HTTP/1.x. */
  private final H2Body h2;

  /** The largest piece of a large event's tail: 64 KiB, or one DATA frame's worth on HTTP/2. */
  private final int pieceBytes;

  private final long intervalNanos;
  private final long firstDueNanos;
  private final Done done;
  private int next;
  private boolean waitingForWritable;

  /**
   * The stream waited for the socket (or the window) since its last frame was audited: that frame
   * was held by the path behind it.
   */
  private boolean waitedForSocket;

  private boolean ended;
  private ScheduledFuture<?> pending;

  /** SSE comments while the stream is quiet, or null for none. */
  private KeepAlives keepAlives;

  /** A large event whose tail is still being written: which, how far, and when it was due. */
  private int tailIndex;

  private long tailSent;
  private long tailTotal;
  private long tailDue;

  PacedStream(
      Channel channel,
      FrameSource source,
      PacingAudit audit,
      boolean chunked,
      StreamCompressor compressor,
      H2ServerSession h2,
      int h2StreamId,
      long startNanos,
      long thinkNanos,
      long intervalNanos,
      Done done) {
    if (16
            + source.maxEventBytes()
            + ChunkFraming.CRLF.length
            + source.trailer().length
            + ChunkFraming.LAST_CHUNK.length
        > MAX_WHOLE_EVENT_BYTES + FRAMING_ROOM_BYTES) {
      throw new IllegalStateException(
          "an event of " + source.maxEventBytes() + " B does not fit the write buffer");
    }
    this.channel = channel;
    this.source = source;
    this.audit = audit;
    this.chunked = chunked;
    this.h2 = h2 == null ? null : new H2Body(channel, h2, h2StreamId);
    this.compressed =
        compressor == null
            ? null
            : new CompressedBody(channel, compressor, this.h2, chunked, audit, () -> ended);
    this.pieceBytes = h2 != null ? H2ServerSession.MAX_DATA_FRAME : MAX_WHOLE_EVENT_BYTES;
    this.intervalNanos = intervalNanos;
    this.firstDueNanos = startNanos + thinkNanos;
    this.done = done;
  }

  void start() {
    if (keepAlives != null) keepAlives.start(); // the head has just gone
    scheduleAt(firstDueNanos);
  }

  /**
   * SSE comment keep-alives every {@code nanos} of quiet ({@link KeepAlives}). Set before {@link
   * #start}; 0 (the default) sends none.
   */
  void keepAlive(long nanos) {
    this.keepAlives = nanos > 0 ? new KeepAlives(channel.eventLoop(), nanos, this) : null;
  }

  @Override
  public boolean ended() {
    return ended || !channel.isActive();
  }

  @Override
  public boolean mayWriteComment() {
    return tailTotal == 0
        && channel.isWritable()
        && (h2 == null || h2.canSend(KeepAlives.COMMENT.length + CompressedBody.ENCODER_SLACK));
  }

  @Override
  public void writeComment() {
    audit.recordKeepAlive();
    if (compressed != null) {
      ByteBuf buf = compressed.keepAlive(KeepAlives.COMMENT);
      if (buf != null) channel.writeAndFlush(buf, channel.voidPromise());
      return;
    }
    ByteBuf buf = channel.alloc().directBuffer(KeepAlives.COMMENT.length + 16);
    if (h2 != null) {
      h2.data(buf, KeepAlives.COMMENT, KeepAlives.COMMENT.length, false);
    } else {
      ChunkFraming.piece(buf, KeepAlives.COMMENT, KeepAlives.COMMENT.length, chunked);
    }
    channel.writeAndFlush(buf, channel.voidPromise());
  }

  /** The channel became writable again: resume a stream that was waiting for it. */
  void writable() {
    if (waitingForWritable && !ended) {
      waitingForWritable = false;
      run();
    }
  }

  /** Grows with every write (frames begun, bytes of a large frame's tail): for the idle watch. */
  long progress() {
    return next + tailSent;
  }

  /** The peer went away: stop without writing. */
  void cancel() {
    if (pending != null) pending.cancel(false);
    finish(false);
  }

  @Override
  public void run() {
    pending = null;
    int writes = 0;
    while (!ended) {
      if (!channel.isActive()) {
        finish(false);
        return;
      }
      boolean windowShut = h2 != null && channel.isWritable() && !h2.canSend(nextPieceBound());
      if (!channel.isWritable() || windowShut) {
        // the socket, or HTTP/2's flow-control window, is full: wait for it
        audit.recordBackpressureWait();
        waitedForSocket = true;
        if (windowShut) h2.held();
        waitingForWritable = true;
        return;
      }
      if (h2 != null) h2.writing();
      if (tailTotal > 0) {
        writeTailPiece();
      } else {
        writeFrame();
      }
      if (ended) return;
      if (tailTotal == 0) { // no frame in progress
        if (next == source.frames()) return; // the last write may still be completing
        if (intervalNanos > 0) {
          scheduleAt(dueOf(next));
          return;
        }
      }
      if (++writes == WRITES_PER_TURN) {
        channel.eventLoop().execute(this); // let other streams on this loop have a turn
        return;
      }
    }
  }

  /**
   * At most how many body bytes the next write carries (its event, or a piece of a large one, and
   * the trailer).
   */
  private int nextPieceBound() {
    int body =
        tailTotal > 0 ? (int) Math.min(pieceBytes, tailTotal - tailSent) : source.maxEventBytes();
    // compressed: what the encoder still holds may leave with it, and a flush adds a few bytes of
    // its own
    int held = compressed == null ? 0 : compressed.held();
    return body + source.trailer().length + held;
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

  /** Frame {@code next}: the whole event in one write, or its head (the tail follows in pieces). */
  private void writeFrame() {
    final int index = next++;
    final boolean last = next == source.frames();
    byte[] scratch = SCRATCH.get();
    long emitEpoch = LabClock.epochNanos();
    int headLen = source.write(index, emitEpoch, scratch, 0);
    long tail = source.tailBytes(index);
    byte[] trailer = last ? source.trailer() : NONE;
    if (compressed != null || h2 != null) {
      if (tail > 0) beginTail(index, tail);
      sendPiece(scratch, headLen, tail == 0, last, trailer, index, dueOf(index));
      return;
    }
    ByteBuf buf =
        channel
            .alloc()
            .directBuffer(
                headLen + 16 + (tail == 0 ? trailer.length + ChunkFraming.LAST_CHUNK.length : 0));
    if (chunked) ChunkFraming.sizeLine(buf, headLen + tail + trailer.length);
    audit.recordFrameBytes(headLen + tail + (chunked ? ChunkFraming.overhead(headLen + tail) : 0));
    buf.writeBytes(scratch, 0, headLen);
    long due = dueOf(index);
    if (tail > 0) {
      beginTail(index, tail);
      // a piece: only the event's last write is audited
      channel.writeAndFlush(buf, channel.voidPromise());
      return;
    }
    ChunkFraming.eventEnd(buf, trailer, chunked, last);
    writeEventEnd(buf, index, due, last);
  }

  /** A large event's head has gone: its tail follows in pieces, all due when the event was. */
  private void beginTail(int index, long tail) {
    tailIndex = index;
    tailSent = 0;
    tailTotal = tail;
    tailDue = dueOf(index);
  }

  /** The next piece of a large event's tail; the last piece ends the event. */
  private void writeTailPiece() {
    int n = (int) Math.min(pieceBytes, tailTotal - tailSent);
    boolean endsEvent = tailSent + n == tailTotal;
    boolean last = endsEvent && tailIndex == source.frames() - 1;
    byte[] trailer = last ? source.trailer() : NONE;
    byte[] scratch = SCRATCH.get();
    source.writeTail(tailIndex, tailSent, n, scratch, 0);
    if (compressed != null || h2 != null) {
      tailSent += n;
      if (endsEvent) tailTotal = 0;
      sendPiece(scratch, n, endsEvent, last, trailer, tailIndex, tailDue);
      return;
    }
    ByteBuf buf =
        channel
            .alloc()
            .directBuffer(
                n
                    + (endsEvent
                        ? trailer.length + ChunkFraming.CRLF.length + ChunkFraming.LAST_CHUNK.length
                        : 0));
    buf.writeBytes(scratch, 0, n);
    tailSent += n;
    if (!endsEvent) {
      // a piece: only the event's last write is audited
      channel.writeAndFlush(buf, channel.voidPromise());
      return;
    }
    tailTotal = 0;
    ChunkFraming.eventEnd(buf, trailer, chunked, last);
    writeEventEnd(buf, tailIndex, tailDue, last);
  }

  /**
   * A compressed body, or HTTP/2: the event's bytes (or a piece of them, and the trailer at the
   * end) leave as one chunk of what the compressor lets go now, or as DATA frames in one write
   * within the windows the run loop checked (the last with END_STREAM). A compressed event is
   * audited when it was handed on, as an application's write into its framework's compression
   * layer; what the layer holds back is what the lab measures downstream.
   */
  private void sendPiece(
      byte[] b, int len, boolean endsEvent, boolean last, byte[] trailer, int index, long due) {
    ByteBuf buf;
    if (compressed != null) {
      buf = compressed.write(b, len, endsEvent, last, trailer); // audits what leaves
    } else {
      buf = h2.data(b, len, endsEvent, last, trailer);
      audit.recordFrameBytes(buf.readableBytes());
    }
    if (!endsEvent) {
      if (buf != null) channel.writeAndFlush(buf, channel.voidPromise());
      return;
    }
    writeEventEnd(
        buf == null ? Unpooled.EMPTY_BUFFER : buf, index, h2 == null ? due : h2.due(due), last);
  }

  /**
   * Writes the bytes that complete event {@code index} and audits when the kernel had them all. The
   * usual case allocates nothing: the write goes with the channel's void promise and, on an event
   * loop with nothing queued before it, epoll's flush is a synchronous send(), so an empty outbound
   * buffer right after it means the kernel has every byte now. Only when the send was partial (the
   * socket buffer filled) does an empty write with a real promise follow, completing when the
   * frame's last byte leaves, in order. A failed write closes the channel, which cancels the
   * stream.
   */
  private void writeEventEnd(ByteBuf buf, int index, long due, boolean last) {
    if (keepAlives != null) keepAlives.wrote(System.nanoTime());
    channel.writeAndFlush(buf, channel.voidPromise());
    ChannelOutboundBuffer queued = channel.unsafe().outboundBuffer();
    if (queued != null && queued.totalPendingWriteBytes() == 0 && channel.isActive()) {
      audit.recordWritten(index, due, System.nanoTime(), waitedForSocket);
      waitedForSocket = false;
      if (last) finish(true);
      return;
    }
    if (queued == null || !channel.isActive()) {
      finish(false);
      return;
    }
    waitedForSocket = false;
    channel
        .writeAndFlush(Unpooled.EMPTY_BUFFER)
        .addListener(
            x -> {
              audit.recordWritten(index, due, System.nanoTime(), true);
              if (last) finish(x.isSuccess());
            });
  }

  private void finish(boolean complete) {
    if (ended) return;
    ended = true;
    if (keepAlives != null) keepAlives.cancel();
    if (compressed != null)
      compressed.close(); // its native memory, whether the stream completed or not
    audit.finish(complete);
    done.streamEnded(complete);
  }
}
