/**
 * The misbehaving relay: request bytes up untouched, response bytes through a shaper chain, HTTP/2
 * at its edge.
 *
 * <p>{@code Relay} (connection cap), {@code RelayConnection} (request bytes up untouched, response
 * bytes through the chain; a client whose first bytes are HTTP/2's preface, or that chose h2 by
 * ALPN, is handed to {@code H2Edge}, which runs each stream as its own {@code RelayConnection}
 * directly, the stream as its {@code ClientSide}, and frames the shaped response within the
 * client's windows), {@code ClientSide} (the client end of an exchange: {@code SocketClient}, or an
 * h2 stream), {@code ConnectionContext} (a connection's {@code ShaperContext}), {@code
 * ClientWriter}, {@code FlowControl}, {@code HeldBytes}, {@code UpstreamPool}, {@code
 * ConnectionPlan}
 */
package flushlab.relay;
