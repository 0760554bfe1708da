package flushlab.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * One side of an HTTP/2 connection's header compression (Netty's HPACK): its encoder and decoder
 * keep the connection's dynamic tables, so one instance per connection, used in frame order.
 */
public final class Hpack {
  private final DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
  private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(true);

  /** A header block as it arrived (HEADERS and its CONTINUATIONs), decoded. */
  public Http2Headers decode(int streamId, byte[] block, int len) throws Http2Exception {
    ByteBuf in = Unpooled.wrappedBuffer(block, 0, len);
    try {
      return decoder.decodeHeaders(streamId, in);
    } finally {
      in.release();
    }
  }

  /** {@code headers} as a header block for {@code streamId}. */
  public byte[] encode(int streamId, Http2Headers headers) throws Http2Exception {
    ByteBuf out = Unpooled.buffer(256);
    try {
      encoder.encodeHeaders(streamId, headers, out);
      byte[] b = new byte[out.readableBytes()];
      out.readBytes(b);
      return b;
    } finally {
      out.release();
    }
  }
}
