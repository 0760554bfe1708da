package flushlab.coding;

import java.util.Arrays;

/**
 * One compressed body under a {@link FlushPolicy}: the writer gives it each write (and says whether
 * the write ends an event), then sends {@link #ready()} bytes from {@link #buffer()} and calls
 * {@link #sent()}. Output waits here only as long as the policy says (bytes:N holds up to N
 * compressed bytes, end all of them until the body ends; everything else is ready as soon as the
 * encoder releases it). Under ms:T the writer arms a timer when {@link #wantsTimer()} and calls
 * {@link #timerFired()} when it fires. Confined to one thread; {@link #close} releases the
 * encoder's native memory.
 */
public final class StreamCompressor {
  private final ContentCoding coding;
  private final FlushPolicy policy;
  private final BodyEncoder encoder;
  private byte[] out = new byte[4096];
  private int outLen;

  /** Input written since the encoder was last flushed (ms:T arms its timer on the first). */
  private boolean unflushed;

  /** Uncompressed bytes written since the encoder was last flushed (what input:N counts). */
  private long inputSinceFlush;

  /** A write has begun and not yet ended (under next, a flush comes only before a new one). */
  private boolean writeOpen;

  private boolean finished;
  private final ByteSink append = this::append;

  public StreamCompressor(ContentCoding coding, FlushPolicy policy) {
    this.coding = coding;
    this.policy = policy;
    this.encoder = BodyEncoder.of(coding);
  }

  public ContentCoding coding() {
    return coding;
  }

  public FlushPolicy policy() {
    return policy;
  }

  /**
   * Compresses one write; {@code endsEvent} is where a per-event flush may happen (each large
   * event's last piece).
   */
  public void write(byte[] b, int off, int len, boolean endsEvent) {
    // next: what the last write left in the encoder goes out as this one begins
    if (policy.kind() == FlushPolicy.Kind.NEXT && !writeOpen && unflushed && !finished) flush();
    writeOpen = true;
    encoder.write(b, off, len, append);
    unflushed = true;
    inputSinceFlush += len;
    if (endsEvent) endOfWrite();
  }

  /**
   * One write is complete (an event, or one read from upstream): each and bytes:N flush the encoder
   * here, input:N once N came in.
   */
  public void endOfWrite() {
    writeOpen = false;
    if (finished || !unflushed) return;
    switch (policy.kind()) {
      case EACH, BYTES -> flush();
      case INPUT -> {
        if (inputSinceFlush >= policy.value()) flush();
      }
      default -> {
        // none waits for the encoder, ms:T for its timer, next for the next write
      }
    }
  }

  /** The ms:T timer fired: everything written so far becomes ready. */
  public void timerFired() {
    if (finished) return;
    flush();
  }

  private void flush() {
    encoder.flush(append);
    unflushed = false;
    inputSinceFlush = 0;
  }

  /** Under ms:T, input waits for a flush: the writer should have a timer armed. */
  public boolean wantsTimer() {
    return policy.kind() == FlushPolicy.Kind.MS && unflushed && !finished;
  }

  /** Ends the body: the encoder's tail and trailer become ready, whatever the policy. */
  public void finish() {
    if (finished) return;
    finished = true;
    encoder.finish(append);
  }

  /**
   * Bytes to send now (0 while a bytes:N buffer is below N, and under end until the body ends or
   * the held output reaches its cap).
   */
  public int ready() {
    if (policy.kind() == FlushPolicy.Kind.BYTES && !finished && outLen < policy.value()) return 0;
    if (policy.kind() == FlushPolicy.Kind.END && !finished && outLen < FlushPolicy.END_HELD_CAP)
      return 0;
    return outLen;
  }

  public byte[] buffer() {
    return out;
  }

  /** The ready bytes were sent. */
  public void sent() {
    int r = ready();
    if (r == 0) return;
    outLen = 0;
  }

  public void close() {
    finished = true;
    encoder.close();
  }

  private void append(byte[] b, int off, int len) {
    if (outLen + len > out.length) out = Arrays.copyOf(out, Math.max(out.length * 2, outLen + len));
    System.arraycopy(b, off, out, outLen, len);
    outLen += len;
  }
}
