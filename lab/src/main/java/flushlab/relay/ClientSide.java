package flushlab.relay;

import io.netty.channel.Channel;
import io.vertx.core.buffer.Buffer;
import java.util.function.BooleanSupplier;

/**
 * The client end of one relayed exchange as its chain sees it: an HTTP/1.1 client's TCP connection
 * ({@link SocketClient}), or one stream of an HTTP/2 client's connection, which {@link H2Edge}
 * turns into frames within that stream's windows. A stream's exchange runs its shapers and its own
 * upstream connection directly, with no connection of its own in between: a reset stream lets go of
 * everything it held at once. Confined to the connection's event loop.
 */
interface ClientSide {
  /**
   * The client's TCP connection: its event loop runs the exchange, and socket shapers (nagle) set
   * its options.
   */
  Channel channel();

  /** Who the client is, for the log. */
  String describe();

  /** Sends response bytes toward the client. */
  void write(Buffer b);

  /** Whether the client takes more now; when not, {@code onWritable} is called once it does. */
  boolean writable();

  void onWritable(Runnable r);

  /** The response ends with the connection (HTTP/1.1 close-delimited), after what was written. */
  void end();

  /** Closes at once: the exchange broke. */
  void close();

  /** An abortive close: a TCP RST for a socket (SO_LINGER 0), RST_STREAM for a stream. */
  void reset();

  /**
   * TCP_CORK on the client's socket; false when this transport cannot (the caller fails the
   * exchange).
   */
  boolean cork(boolean on);

  /**
   * Pauses and resumes reading the client's request bytes; {@code mayResume} says whether the
   * exchange is still open.
   */
  FlowControl.Valve requestValve(BooleanSupplier mayResume);
}
