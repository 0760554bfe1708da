package flushlab.relay.shaper;

import flushlab.coding.BodyDecoder;
import flushlab.coding.ByteSink;
import flushlab.coding.ContentCoding;
import flushlab.coding.FlushPolicy;
import flushlab.coding.StreamCompressor;
import flushlab.core.Named;
import flushlab.http.Headers;
import flushlab.http.HttpParseException;
import flushlab.http.HttpResponseParser;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A compressing proxy (nginx's gzip filter, HAProxy's compression, Caddy's encode, a CDN edge): a
 * response whose request accepted the coding, of a type it compresses, not already encoded and not
 * marked no-transform, leaves with Content-Encoding, chunked, its body re-encoded; the others pass
 * as they came. Output leaves under the flush policy: each upstream read (flush=each), the
 * encoder's own blocks and the end (none), once N compressed bytes wait (bytes), T after the first
 * unflushed byte (timer), once N uncompressed bytes came in (input), as the next read comes (next:
 * one read late), or all at the body's end (end: Traffic Server's compress plugin without flush,
 * which compresses the whole response once it has it, the head sent at once). With min-length, the
 * body is held until that many bytes arrived before deciding, as Caddy does: a shorter response is
 * sent as it was. HTTP/1.0 requests are not compressed (nginx's gzip_http_version). The decoded
 * body is the upstream's, byte for byte; a response that passes keeps its head, and a chunked one
 * is re-chunked as its pieces arrive (as a proxy that parses the body does). With others=decoded, a
 * client that does not accept the coding gets the body compressed anyway and decoded as it leaves
 * (Varnish with beresp.do_gzip stores the gzip and gunzips it on delivery): plain bytes, released
 * when the encoder released them. A HEAD request's answer is not modelled.
 */
public final class Compress extends Shaper {
  public static final Param ALGO =
      Param.choice("algo", ContentCoding.GZIP, ContentCoding.class, "the content coding");
  public static final Param FLUSH =
      Param.choice(
          "flush",
          Flush.EACH,
          Flush.class,
          "each: flush per upstream read; none: the encoder's own blocks and the end; bytes: send once bytes= compressed bytes "
              + "wait; timer: flush after= after the first unflushed byte; input: flush once bytes= uncompressed bytes came in since "
              + "the last flush; next: flush what is held when the next read comes (each read leaves one read late); end: the whole "
              + "body at its end (the head at once; held output capped at 16 MiB)");
  public static final Param BYTES =
      Param.size(
              "bytes",
              null,
              1,
              16L << 20,
              "flush=bytes: compressed bytes held before they leave; flush=input: uncompressed bytes between flushes")
          .optional();
  public static final Param AFTER =
      Param.duration(
              "after",
              null,
              1_000_000L,
              60_000_000_000L,
              "flush=timer: the flush timer, from the first unflushed byte")
          .optional();
  public static final Param MIN_LENGTH =
      Param.size(
          "min-length",
          "0B",
          0,
          16L << 20,
          "body bytes held before deciding to compress (Caddy's minimum_length); a shorter response is sent as it was");
  public static final Param TYPES =
      Param.choice(
          "types",
          Types.EVENT_STREAM,
          Types.class,
          "which responses: text/event-stream only, any text/*, or any type");
  public static final Param OTHERS =
      Param.choice(
          "others",
          Others.AS_IS,
          Others.class,
          "clients that do not accept the coding: as-is, the body as it came; decoded, compressed anyway and decoded on delivery "
              + "(Varnish's do_gzip), so they get plain bytes when the encoder lets them go");

  /** When the encoder's output is flushed (see {@link #FLUSH}). */
  public enum Flush implements Named {
    EACH,
    NONE,
    BYTES,
    TIMER,
    INPUT,
    NEXT,
    END
  }

  /** Which responses are compressed. */
  public enum Types implements Named {
    EVENT_STREAM,
    TEXT,
    ANY
  }

  /** What clients that do not accept the coding get. */
  public enum Others implements Named {
    AS_IS,
    DECODED
  }

  public static final ShaperType TYPE =
      new ShaperType(
          "compress",
          false,
          "a compressing proxy: re-encodes the body (gzip, deflate, br or zstd) for requests that accept it, releasing output "
              + "per read, at the encoder's will, by compressed size or by timer",
          List.of(ALGO, FLUSH, BYTES, AFTER, MIN_LENGTH, TYPES, OTHERS),
          "compress=gzip,flush=bytes,bytes=2KiB",
          p -> () -> new Compress(p));

  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

  private final ContentCoding coding;
  private final FlushPolicy policy;
  private final long minLength;
  private final Types types;

  private final AcceptingRequests requests;
  private final HttpResponseParser responses;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /** The response being re-encoded (null: it passes as it came). */
  private StreamCompressor compressor;

  /**
   * The response under way goes to a client that does not accept the coding, compressed and decoded
   * (others=decoded).
   */
  private boolean decodeOnDelivery;

  /** Deciding on min-length: the head and body bytes held, raw, and the body so far. */
  private boolean deciding;

  private final ByteArrayOutputStream rawHeld = new ByteArrayOutputStream();
  private final ByteArrayOutputStream bodyHeld = new ByteArrayOutputStream();
  private Headers pendingHead;
  private int pendingStatus;
  private String pendingReason;

  /** The response passing as it came is chunked: its body is re-chunked piece by piece. */
  private boolean passChunked;

  private boolean opaque;
  private ScheduledFuture<?> flushTimer;

  /**
   * others=decoded: a client that does not accept the coding gets the compressed body decoded as it
   * leaves.
   */
  private final boolean decodeForOthers;

  /** The response being re-encoded is decoded again on its way out (null: it leaves encoded). */
  private BodyDecoder decoder;

  private final ByteSink chunkDecoded = this::chunk;

  Compress(Params p) {
    this.coding = p.choice(ALGO, ContentCoding.class);
    this.policy = CompressPolicy.of(p);
    this.minLength = p.get(MIN_LENGTH);
    this.types = p.choice(TYPES, Types.class);
    this.decodeForOthers = p.choice(OTHERS, Others.class) == Others.DECODED;
    this.requests = new AcceptingRequests(coding);
    this.responses =
        new HttpResponseParser(
            new HttpResponseParser.Listener() {
              @Override
              public void onHead(int status, String reason, Headers headers) {
                head(status, reason, headers);
              }

              @Override
              public void onBody(byte[] b, int off, int len) {
                body(b, off, len);
              }

              @Override
              public void onComplete() {
                complete();
              }
            });
  }

  @Override
  public boolean readsRequests() {
    return true;
  }

  @Override
  public void onRequestBytes(Buffer bytes) {
    try {
      requests.feed(bytes);
    } catch (HttpParseException | IllegalStateException e) {
      opaque = true; // what it cannot parse it passes on, as a proxy that gives up on compressing
    }
  }

  @Override
  public void accept(Chunk c) {
    if (c.kind != Chunk.Kind.DATA || opaque) {
      if (c.kind == Chunk.Kind.CLOSE || c.kind == Chunk.Kind.RESET) endEarly();
      next.accept(c);
      return;
    }
    out.reset();
    byte[] bytes = c.bytes.getBytes();
    try {
      responses.feed(bytes, 0, bytes.length);
    } catch (HttpParseException e) {
      opaque = true;
      next.accept(c);
      return;
    }
    if (compressor != null) {
      compressor.endOfWrite(); // one upstream read: flush=each and bytes flush here
      take();
      armTimer();
    }
    if (out.size() > 0) next.accept(c.withBytes(Buffer.buffer(out.toByteArray())));
  }

  private void head(int status, String reason, Headers headers) {
    boolean accepted = requests.nextAccepted();
    decodeOnDelivery = !accepted && decodeForOthers;
    if (!accepted && !decodeForOthers || !CompressedHeads.compressible(status, headers, types)) {
      // passes as it came: the same head; the body in its own framing (a chunked one re-chunked as
      // it arrives)
      passChunked = headers.has("Transfer-Encoding", "chunked");
      out.writeBytes(CompressedHeads.asParsed(status, reason, headers));
      return;
    }
    if (minLength > 0) {
      deciding = true;
      pendingStatus = status;
      pendingReason = reason;
      pendingHead = headers;
      rawHeld.reset();
      bodyHeld.reset();
      rawHeld.writeBytes(CompressedHeads.rebuilt(status, reason, headers, null));
      return;
    }
    start(status, reason, headers);
  }

  private void start(int status, String reason, Headers headers) {
    compressor = new StreamCompressor(coding, policy);
    if (decodeOnDelivery) decoder = BodyDecoder.of(coding);
    out.writeBytes(
        CompressedHeads.rebuilt(status, reason, headers, decodeOnDelivery ? null : coding));
  }

  private void body(byte[] b, int off, int len) {
    if (compressor == null && !deciding) {
      if (passChunked) {
        chunk(b, off, len);
      } else {
        out.write(b, off, len);
      }
      return;
    }
    if (deciding) {
      bodyHeld.write(b, off, len);
      if (bodyHeld.size() >= minLength) {
        deciding = false;
        start(pendingStatus, pendingReason, pendingHead);
        byte[] held = bodyHeld.toByteArray();
        bodyHeld.reset();
        compressor.write(held, 0, held.length, false);
      }
      return;
    }
    if (compressor != null) compressor.write(b, off, len, false);
  }

  private void complete() {
    if (deciding) {
      // shorter than min-length: sent as it was, chunked as the head now says
      deciding = false;
      out.writeBytes(rawHeld.toByteArray());
      byte[] body = bodyHeld.toByteArray();
      chunk(body, 0, body.length);
      out.writeBytes(LAST_CHUNK);
      bodyHeld.reset();
      return;
    }
    if (compressor == null) {
      if (passChunked) out.writeBytes(LAST_CHUNK);
      passChunked = false;
      return;
    }
    cancelTimer();
    compressor.finish();
    take();
    out.writeBytes(LAST_CHUNK);
    compressor.close();
    compressor = null;
    if (decoder != null) {
      decoder.close();
      decoder = null;
    }
  }

  /**
   * The compressor's ready bytes as one chunk into {@link #out}; decoded first for a client that
   * does not accept the coding.
   */
  private void take() {
    int n = compressor.ready();
    if (n == 0) return;
    if (decoder == null) {
      chunk(compressor.buffer(), 0, n);
    } else {
      try {
        decoder.feed(compressor.buffer(), 0, n, chunkDecoded);
      } catch (BodyDecoder.Corrupt e) {
        // the lab's own encoder's output: a decoder that refuses it is a bug, never a stream to
        // pass on half-decoded
        throw new IllegalStateException(
            "compress others=decoded: the lab's own " + coding.text() + " output did not decode",
            e);
      }
    }
    compressor.sent();
  }

  private void chunk(byte[] b, int off, int n) {
    if (n == 0) return;
    out.writeBytes(Integer.toHexString(n).getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(CRLF);
    out.write(b, off, n);
    out.writeBytes(CRLF);
  }

  private void armTimer() {
    if (compressor == null || !compressor.wantsTimer() || flushTimer != null) return;
    flushTimer =
        ctx.schedule(
            () -> {
              flushTimer = null;
              if (compressor == null) return;
              compressor.timerFired();
              out.reset();
              take();
              if (out.size() > 0)
                next.accept(Chunk.data(Buffer.buffer(out.toByteArray()), System.nanoTime()));
            },
            compressor.policy().value());
  }

  private void cancelTimer() {
    if (flushTimer != null) {
      flushTimer.cancel(false);
      flushTimer = null;
    }
  }

  /**
   * Upstream went away mid-response: what was compressed so far is not a whole body; drop the
   * encoder.
   */
  private void endEarly() {
    cancelTimer();
    if (compressor != null) {
      compressor.close();
      compressor = null;
    }
    if (decoder != null) {
      decoder.close();
      decoder = null;
    }
  }

  @Override
  public void release() {
    endEarly();
  }
}
