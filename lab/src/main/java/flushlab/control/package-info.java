/**
 * The live console with a Toxiproxy-compatible API over lab relays.
 *
 * <p>{@code flushlab console}: {@code ControlServer}, {@code ApiConnections} (the emitter's head
 * timeout and connection cap for the API, kept in the listening channel's pipeline), {@code
 * ControlApi} (Toxiproxy's routes on one event loop that owns the proxies; caps proxies, toxics,
 * names; refuses the lab's own ports; {@code ProxyNames} what a name may be, {@code JsonReplies}
 * its bodies and errors, {@code ListenFailed} its 409), {@code LabProxy}, {@code Toxic}
 * (Toxiproxy's types built as typed shaper specs), {@code ConsoleStreams}
 */
package flushlab.control;
