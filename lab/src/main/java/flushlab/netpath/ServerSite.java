package flushlab.netpath;

import flushlab.core.HostPort;
import flushlab.emitter.PacingAudit;
import io.vertx.core.Context;
import java.util.List;

/**
 * Where the lab runs its servers for one network path: the emitter, and the relays and proxies in
 * front of it. On loopback they run in the lab's own process (relays, emitter) or as its children
 * (proxies); on a veth path all of them run inside the link's namespace, so the client reaches each
 * across the link. Targets ask their site where and how to start.
 */
public sealed interface ServerSite extends AutoCloseable permits LoopbackSite, VethSite {
  NetworkPath path();

  /** Where clients and proxies reach the emitter. */
  HostPort emitter();

  /**
   * Where clients reach the emitter over TLS (the lab's certificate), opened on first use.
   *
   * @throws UnsupportedOperationException with the reason, where this site cannot
   */
  HostPort emitterTls();

  /**
   * The pacing audit of a stream the emitter served (waiting a moment for one it is still filing),
   * or null when it has none; never on an event loop.
   */
  PacingAudit.Summary audit(long streamId);

  /** The emitter's process when it runs in another one (a namespace's), else -1. */
  default long emitterPid() {
    return -1;
  }

  /**
   * The emitter's event loop, when it runs in this process (tests disturb it on purpose); else
   * null.
   */
  Context emitterLoop();

  /** The host a server started on this site listens on (127.0.0.1 on loopback). */
  String listenHost();

  /** The command that runs {@code command} where this site's servers run. */
  List<String> placed(List<String> command);

  @Override
  void close();
}
