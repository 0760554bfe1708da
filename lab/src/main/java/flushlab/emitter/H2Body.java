package flushlab.emitter;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/**
 * A paced stream's body as HTTP/2 DATA on its connection's session, within the flow-control
 * windows, and when the client's window last held the stream: a frame due before the window let the
 * stream write again was held by the peer, not late by the emitter, so the pacing audit counts its
 * lateness from that moment, and a run is not excluded for what the path did. Confined to the
 * stream's event loop.
 */
final class H2Body {
  private final Channel channel;
  private final H2ServerSession session;
  private final int streamId;

  /** Since when the window has held the stream (-1: it does not). */
  private long heldSince = -1;

  /** When the window last let the stream write again after holding it. */
  private long releasedAt = Long.MIN_VALUE;

  H2Body(Channel channel, H2ServerSession session, int streamId) {
    this.channel = channel;
    this.session = session;
    this.streamId = streamId;
  }

  /** Whether the stream's and the connection's windows take {@code bytes} now. */
  boolean canSend(int bytes) {
    return session.canSend(streamId, bytes);
  }

  /** The window holds the next write: noted once, from now. */
  void held() {
    if (heldSince < 0) heldSince = System.nanoTime();
  }

  /** The stream writes: if the window held it, it let go now. */
  void writing() {
    if (heldSince >= 0) {
      heldSince = -1;
      releasedAt = System.nanoTime();
    }
  }

  /** When a frame due at {@code due} could go at the earliest: not before the window let it. */
  long due(long due) {
    return Math.max(due, releasedAt);
  }

  /**
   * DATA carrying {@code len} bytes of {@code b} (and the trailer, when the event ends with it: the
   * scratch array has room for it), END_STREAM on the stream's last.
   */
  ByteBuf data(byte[] b, int len, boolean endsEvent, boolean last, byte[] trailer) {
    int n = len;
    if (endsEvent && trailer.length > 0) {
      System.arraycopy(trailer, 0, b, len, trailer.length);
      n += trailer.length;
    }
    ByteBuf buf = channel.alloc().directBuffer(n + H2ServerSession.framing(n));
    session.data(buf, streamId, b, 0, n, last && endsEvent);
    return buf;
  }

  /** DATA carrying the first {@code len} bytes of {@code bytes} into {@code buf}. */
  void data(ByteBuf buf, byte[] bytes, int len, boolean endStream) {
    session.data(buf, streamId, bytes, 0, len, endStream);
  }
}
