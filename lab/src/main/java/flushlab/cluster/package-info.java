/**
 * A lab on several hosts: agents, their trust, their clocks, and the runner's remote lab on them.
 *
 * <p>{@code flushlab agent}: {@code ClusterSpec} (a lab's name, secret, version, an agent's ports;
 * the Hazelcast cluster name derived from them), {@code Hello} (the handshake that refuses a member
 * of another lab by name; per-address caps), {@code BusCertificate} (the one Ed25519 certificate a
 * lab's members derive from its secret: the bus's TLS 1.3, required both ways, trusted alone),
 * {@code BusGate} (the bus port: caps, the TLS handshake within 10 s, frames up to 64 MiB, each
 * refusal logged; Vert.x's bus behind it on loopback), {@code Agent} (Vert.x clustered on
 * Hazelcast, TCP member list, 17 partitions, every bus request with a timeout; its three ports
 * checked free first), {@code ClockOffset} (another agent's clock from the narrowest round trips,
 * with its bound), {@code ClientShare} (a share of a client load run for another agent, answered
 * with every stream it read, as JSON, and {@code AgentStalls}, the agent's reads judged against its
 * own hiccup meter, stopped at its deadline), {@code ClusterClients} (a cell's client load split
 * over agents, each pinged first so its answer never waits on a cluster-map lookup; the agents
 * whose share did not come back, named), {@code HostedWork} and {@code RemoteServers} (the emitter
 * and relays an agent runs for a coordinator's run, under a lease it renews; the emitter's audit
 * asked by stream id; {@code ProxyRequest} what it accepts of a request to start a proxy), {@code
 * ClusterLab} (the runner's {@code RemoteLab} for {@code flushlab run} and {@code flushlab map}
 * alike: each target placed on its agent ({@code TargetOnAgent}, a {@code switch} over {@code
 * TargetKind}) once {@code ClusterRequirements} holds (the agents present, each client share
 * whole), cells run whole on client agents, one-way times corrected by the clocks, each agent's
 * share beside the merged streams; an agent that left stops the runs)
 */
package flushlab.cluster;
