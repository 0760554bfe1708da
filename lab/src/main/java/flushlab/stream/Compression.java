package flushlab.stream;

import flushlab.coding.ContentCoding;
import flushlab.coding.FlushPolicy;

/**
 * How the emitter compresses a stream, as an origin framework's compression middleware does: in
 * {@code coding} when the request accepts it (else as it is), letting output go under {@code
 * flush}, and with the Cache-Control it answers with.
 *
 * @param coding the coding to use when accepted, or null never to compress
 */
public record Compression(ContentCoding coding, FlushPolicy flush, CacheControl cacheControl) {
  public static final Compression NONE =
      new Compression(null, FlushPolicy.EACH, CacheControl.NO_CACHE);

  public Compression withCoding(ContentCoding c) {
    return new Compression(c, flush, cacheControl);
  }

  public Compression withFlush(FlushPolicy f) {
    return new Compression(coding, f, cacheControl);
  }

  public Compression withCacheControl(CacheControl c) {
    return new Compression(coding, flush, c);
  }
}
