/**
 * Network paths: loopback, or a veth pair into a namespace with a real-sized MTU.
 *
 * <p>{@code NetworkPath} (loopback or veth with an MTU), {@code VethLink}, {@code LabChild} (a
 * flushlab server as a child JVM in a namespace), {@code ServerSite} (sealed: {@code LoopbackSite},
 * {@code VethSite}), {@code ServerSites}
 */
package flushlab.netpath;
