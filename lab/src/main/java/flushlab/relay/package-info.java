/**
 * The misbehaving relay: request bytes up untouched, response bytes through a shaper chain, HTTP/2
 * at its edge.
 *
 * <p>{@code Relay} (connection cap), {@code RelayConnection} (response bytes through the chain, the
 * request's through {@code RequestPath}, held until upstream connects and paused while it is full;
 * a client whose first bytes are HTTP/2's preface, or that chose h2 by ALPN, is handed to {@code
 * H2Edge}, which runs each stream as its own {@code RelayConnection} directly, with {@code
 * H2RequestDeadline}, {@code H2ConnectionHold} and {@code H2EdgeLimits}), {@code H2EdgeStream} (one
 * such stream: its exchange's {@code ClientSide}, framing the shaped response within its window and
 * the connection's), {@code ClientSide} (the client end of an exchange: {@code SocketClient}, or an
 * h2 stream), {@code ConnectionContext} (a connection's {@code ShaperContext}), {@code
 * ClientWriter}, {@code FlowControl}, {@code HeldBytes}, {@code UpstreamPool}, {@code
 * ConnectionPlan}
 */
package flushlab.relay;
