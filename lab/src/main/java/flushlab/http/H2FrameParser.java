package flushlab.http;

import java.util.Arrays;

/**
 * HTTP/2 frames from bytes as they arrive, split anywhere (a frame header over two reads, a DATA
 * frame over many). DATA payload is handed on as it arrives, so a read's events are that read's;
 * every other frame is collected whole (at most the largest frame allowed) and then dispatched. A
 * header block is put together from HEADERS and its CONTINUATIONs and dispatched once, raw (the
 * caller decodes HPACK). Anything malformed throws {@link HttpParseException}.
 */
public final class H2FrameParser {
  /** A header block (HEADERS and its CONTINUATIONs) larger than this is refused. */
  public static final int MAX_HEADER_BLOCK_BYTES = 256 * 1024;

  /** Receives what the frames say; all calls happen inside {@link #feed}. */
  public interface Listener {
    void onData(int streamId, byte[] b, int off, int len, boolean endStream);

    /** A complete header block (HPACK-encoded), after its CONTINUATIONs. */
    void onHeaders(int streamId, byte[] block, int len, boolean endStream);

    void onSettings(boolean ack, int[] idValue);

    void onWindowUpdate(int streamId, int increment);

    void onPing(boolean ack, byte[] opaque);

    void onRstStream(int streamId, long code);

    void onGoAway(int lastStreamId, long code);
  }

  private final Listener listener;
  private final int maxFrameBytes;

  /**
   * Counts the frames of the floods HTTP/2 is known for (empty DATA, CONTINUATIONs); see {@link
   * H2Guard}.
   */
  private final H2Guard guard;

  /** CONTINUATIONs of the header block open now. */
  private int continuations;

  private final byte[] head = new byte[H2.FRAME_HEADER_BYTES];
  private int headFill;
  private int length;
  private int type;
  private int flags;
  private int streamId;
  private boolean inPayload;
  private int payloadRead;

  /** DATA: bytes of padding at the end, once the pad length byte is read (-1 before). */
  private int padLength = -1;

  private byte[] payload = new byte[256];
  private byte[] block = new byte[256];
  private int blockLen;
  private int blockStream;
  private boolean blockEndStream;
  private boolean expectContinuation;

  /**
   * @param maxFrameBytes the largest frame payload this side advertised (16,384 unless its SETTINGS
   *     said more)
   */
  /**
   * A parser that counts no flood: the metered client's, which measures what a server sends rather
   * than refusing it.
   */
  public H2FrameParser(Listener listener, int maxFrameBytes) {
    this(listener, maxFrameBytes, null);
  }

  /**
   * @param guard a server's flood counters (null: none)
   */
  public H2FrameParser(Listener listener, int maxFrameBytes, H2Guard guard) {
    this.listener = listener;
    this.maxFrameBytes = maxFrameBytes;
    this.guard = guard;
  }

  /**
   * Whether a header block's CONTINUATIONs are still to come, and how many of its bytes are held.
   */
  public boolean headerBlockOpen() {
    return expectContinuation;
  }

  public int heldHeaderBytes() {
    return expectContinuation ? blockLen : 0;
  }

  public void feed(byte[] b, int off, int len) {
    int end = off + len;
    int p = off;
    while (p < end) {
      if (!inPayload) {
        int n = Math.min(H2.FRAME_HEADER_BYTES - headFill, end - p);
        System.arraycopy(b, p, head, headFill, n);
        headFill += n;
        p += n;
        if (headFill == H2.FRAME_HEADER_BYTES) headerRead();
        continue;
      }
      p = type == H2.DATA ? data(b, p, end) : collect(b, p, end);
    }
  }

  private void headerRead() {
    headFill = 0;
    length = ((head[0] & 0xff) << 16) | ((head[1] & 0xff) << 8) | (head[2] & 0xff);
    type = head[3] & 0xff;
    flags = head[4] & 0xff;
    streamId = H2.read31(head, 5);
    if (length > maxFrameBytes) {
      throw new HttpParseException(
          "HTTP/2 frame of "
              + length
              + " bytes, over the "
              + maxFrameBytes
              + " this side allows (FRAME_SIZE_ERROR)",
          false);
    }
    if (expectContinuation && (type != H2.CONTINUATION || streamId != blockStream)) {
      throw new HttpParseException(
          "HTTP/2 header block of stream "
              + blockStream
              + " interrupted by a frame of type "
              + type
              + " (PROTOCOL_ERROR)",
          false);
    }
    String flood =
        guard == null
            ? null
            : type == H2.DATA
                ? guard.dataFrame(length, (flags & H2.FLAG_END_STREAM) != 0)
                : type == H2.CONTINUATION ? guard.continuation(length, ++continuations) : null;
    if (flood != null) throw new H2FloodException(flood);
    inPayload = true;
    payloadRead = 0;
    padLength = -1;
    if (length == 0) frameDone();
  }

  /**
   * DATA payload streams through: its pad length first when PADDED, then the data, then the padding
   * skipped.
   */
  private int data(byte[] b, int p, int end) {
    if (streamId == 0)
      throw new HttpParseException("HTTP/2 DATA on stream 0 (PROTOCOL_ERROR)", false);
    boolean padded = (flags & H2.FLAG_PADDED) != 0;
    if (padded && padLength < 0) {
      padLength = b[p++] & 0xff;
      payloadRead++;
      if (padLength > length - 1)
        throw new HttpParseException(
            "HTTP/2 DATA padding longer than the frame (PROTOCOL_ERROR)", false);
      if (payloadRead == length) frameDone();
      return p;
    }
    int dataEnd = length - Math.max(0, padLength);
    if (payloadRead < dataEnd) {
      int n = Math.min(dataEnd - payloadRead, end - p);
      payloadRead += n;
      boolean last = payloadRead == length;
      listener.onData(streamId, b, p, n, last && (flags & H2.FLAG_END_STREAM) != 0);
      p += n;
      if (last) {
        inPayload = false;
        return p;
      }
      if (payloadRead < dataEnd) return p;
    }
    int n = Math.min(length - payloadRead, end - p); // padding
    payloadRead += n;
    p += n;
    if (payloadRead == length) {
      if ((flags & H2.FLAG_END_STREAM) != 0) listener.onData(streamId, b, p, 0, true);
      inPayload = false;
    }
    return p;
  }

  private int collect(byte[] b, int p, int end) {
    if (payload.length < length)
      payload = Arrays.copyOf(payload, Math.max(length, payload.length * 2));
    int n = Math.min(length - payloadRead, end - p);
    System.arraycopy(b, p, payload, payloadRead, n);
    payloadRead += n;
    if (payloadRead == length) frameDone();
    return p + n;
  }

  private void frameDone() {
    inPayload = false;
    switch (type) {
      case H2.DATA -> listener.onData(streamId, payload, 0, 0, (flags & H2.FLAG_END_STREAM) != 0);
      case H2.HEADERS -> headers();
      case H2.CONTINUATION -> continuation();
      case H2.SETTINGS -> settings();
      case H2.WINDOW_UPDATE -> {
        need(4, "WINDOW_UPDATE");
        int inc = H2.read31(payload, 0);
        if (inc == 0)
          throw new HttpParseException("HTTP/2 WINDOW_UPDATE of 0 (PROTOCOL_ERROR)", false);
        listener.onWindowUpdate(streamId, inc);
      }
      case H2.PING -> {
        need(8, "PING");
        listener.onPing((flags & H2.FLAG_ACK) != 0, Arrays.copyOf(payload, 8));
      }
      case H2.RST_STREAM -> {
        need(4, "RST_STREAM");
        listener.onRstStream(streamId, H2.read32(payload, 0));
      }
      case H2.GOAWAY -> {
        if (length < 8)
          throw new HttpParseException(
              "HTTP/2 GOAWAY shorter than 8 bytes (FRAME_SIZE_ERROR)", false);
        listener.onGoAway(H2.read31(payload, 0), H2.read32(payload, 4));
      }
      case H2.PUSH_PROMISE ->
          throw new HttpParseException(
              "HTTP/2 PUSH_PROMISE, though this side disabled push (PROTOCOL_ERROR)", false);
      default -> {
        // PRIORITY and unknown types are ignored, as RFC 9113 asks
      }
    }
  }

  private void need(int bytes, String what) {
    if (length != bytes)
      throw new HttpParseException(
          "HTTP/2 " + what + " of " + length + " bytes, not " + bytes + " (FRAME_SIZE_ERROR)",
          false);
  }

  private void headers() {
    if (streamId == 0)
      throw new HttpParseException("HTTP/2 HEADERS on stream 0 (PROTOCOL_ERROR)", false);
    int start = 0;
    int end = length;
    if ((flags & H2.FLAG_PADDED) != 0) {
      int pad = payload[0] & 0xff;
      start = 1;
      end -= pad;
    }
    if ((flags & H2.FLAG_PRIORITY) != 0) start += 5;
    if (start > end)
      throw new HttpParseException(
          "HTTP/2 HEADERS padding or priority longer than the frame (PROTOCOL_ERROR)", false);
    blockLen = 0;
    continuations = 0;
    blockStream = streamId;
    blockEndStream = (flags & H2.FLAG_END_STREAM) != 0;
    appendBlock(start, end);
    if ((flags & H2.FLAG_END_HEADERS) != 0) {
      listener.onHeaders(blockStream, block, blockLen, blockEndStream);
    } else {
      expectContinuation = true;
    }
  }

  private void continuation() {
    if (!expectContinuation)
      throw new HttpParseException(
          "HTTP/2 CONTINUATION without a header block open (PROTOCOL_ERROR)", false);
    appendBlock(0, length);
    if ((flags & H2.FLAG_END_HEADERS) != 0) {
      expectContinuation = false;
      listener.onHeaders(blockStream, block, blockLen, blockEndStream);
    }
  }

  private void appendBlock(int from, int to) {
    int n = to - from;
    if (blockLen + n > MAX_HEADER_BLOCK_BYTES) {
      throw new HttpParseException(
          "HTTP/2 header block over " + MAX_HEADER_BLOCK_BYTES + " bytes", false, 431);
    }
    if (block.length < blockLen + n)
      block = Arrays.copyOf(block, Math.max(blockLen + n, block.length * 2));
    System.arraycopy(payload, from, block, blockLen, n);
    blockLen += n;
  }

  private void settings() {
    if (streamId != 0)
      throw new HttpParseException(
          "HTTP/2 SETTINGS on stream " + streamId + " (PROTOCOL_ERROR)", false);
    boolean ack = (flags & H2.FLAG_ACK) != 0;
    if (ack && length != 0 || length % 6 != 0)
      throw new HttpParseException(
          "HTTP/2 SETTINGS of " + length + " bytes (FRAME_SIZE_ERROR)", false);
    int[] idValue = new int[length / 6 * 2];
    for (int i = 0; i < length / 6; i++) {
      idValue[2 * i] = ((payload[i * 6] & 0xff) << 8) | (payload[i * 6 + 1] & 0xff);
      idValue[2 * i + 1] = (int) H2.read32(payload, i * 6 + 2);
    }
    listener.onSettings(ack, idValue);
  }
}
