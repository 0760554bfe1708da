package flushlab.relay;

import flushlab.relay.shaper.Chunk;
import flushlab.relay.shaper.Stage;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * The last stage of every chain: writes to the client (its socket, or its HTTP/2 stream) and
 * carries out socket actions at their place in the stream (cork, close, reset). When the client
 * takes no more it pauses upstream through {@link FlowControl}, unless a shaper in the chain
 * absorbs that itself.
 */
final class ClientWriter implements Stage {
  private final ClientSide client;
  private final FlowControl flow;
  private final boolean passBackPressure;
  private final ConnectionContext ctx;
  private long bytesThisResponse;
  private long bytesTotal;
  private boolean closed;

  ClientWriter(
      ClientSide client, FlowControl flow, boolean passBackPressure, ConnectionContext ctx) {
    this.client = client;
    this.flow = flow;
    this.passBackPressure = passBackPressure;
    this.ctx = ctx;
  }

  /** The client socket drained below its watermark. */
  void writable() {
    flow.release(this);
    ctx.clientBecameWritable();
  }

  @Override
  public void accept(Chunk c) {
    if (closed) return;
    switch (c.kind) {
      case DATA:
        bytesThisResponse += c.length();
        bytesTotal += c.length();
        client.write(c.bytes);
        if (passBackPressure && !client.writable()) flow.hold(this);
        return;
      case RESPONSE_START:
        bytesThisResponse = 0;
        return;
      case RESPONSE_END:
        bytesThisResponse = 0; // between responses: a failure now can still be answered with a 502
        return;
      case CORK:
        if (!client.cork(c.flag)) {
          ctx.fail(
              "the cork shaper needs the native epoll transport (TCP_CORK), which is not available here");
        }
        return;
      case CLOSE:
        closed = true;
        client.end();
        return;
      case RESET:
        closed = true;
        client.reset();
        return;
      default:
        throw new IllegalStateException(c.kind.toString());
    }
  }

  /** True before the first byte of the current response reached the client. */
  boolean nothingSentThisResponse() {
    return bytesThisResponse == 0;
  }

  long bytesTotal() {
    return bytesTotal;
  }

  /** Answers 502 with a one-line reason when nothing was sent yet; closes otherwise. */
  void failConnection(String reason) {
    if (closed) return;
    closed = true;
    if (bytesThisResponse == 0) {
      byte[] body = ("flushlab relay: " + reason + "\n").getBytes(StandardCharsets.UTF_8);
      String head =
          "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: "
              + body.length
              + "\r\nConnection: close\r\n\r\n";
      client.write(Buffer.buffer(head).appendBytes(body));
      client.end();
    } else {
      client.close();
    }
  }
}
