package flushlab.netpath;

import flushlab.core.HostPort;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.emitter.PacingAudit;
import flushlab.tls.ServerTls;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Today's path: the emitter in the lab's own Vert.x, everything on this host's loopback. */
public final class LoopbackSite implements ServerSite {
  private final Vertx vertx;
  private final Emitter emitter;
  private final HostPort address;

  private LoopbackSite(Vertx vertx, Emitter emitter, HostPort address) {
    this.vertx = vertx;
    this.emitter = emitter;
    this.address = address;
  }

  /** Deploys the emitter at {@code listen}; throws with why when it cannot listen there. */
  public static LoopbackSite open(Vertx vertx, HostPort listen) throws Exception {
    Emitter emitter = new Emitter(new EmitterOptions(listen.host(), listen.port(), true, 0));
    try {
      vertx.deployVerticle(emitter).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new Exception("the emitter cannot listen on " + listen + ": " + e.getMessage(), e);
    }
    String host = listen.host();
    boolean wildcard =
        host.equals("0.0.0.0") || host.equals("::") || host.equals("0:0:0:0:0:0:0:0");
    return new LoopbackSite(
        vertx, emitter, new HostPort(wildcard ? "127.0.0.1" : host, emitter.port()));
  }

  @Override
  public NetworkPath path() {
    return NetworkPath.LOOPBACK;
  }

  @Override
  public HostPort emitter() {
    return address;
  }

  private HostPort tlsAddress;

  @Override
  public synchronized HostPort emitterTls() {
    if (tlsAddress == null) {
      try {
        int port =
            emitter
                .listenTls(address.host(), 0, ServerTls.selfSigned())
                .await(10, TimeUnit.SECONDS);
        tlsAddress = new HostPort(address.host(), port);
      } catch (Exception e) {
        throw new UnsupportedOperationException(
            "the emitter cannot listen with TLS on " + address.host() + ": " + e.getMessage(), e);
      }
    }
    return tlsAddress;
  }

  @Override
  public PacingAudit.Summary audit(long streamId) {
    try {
      return emitter.audits().awaitSummary(streamId, AUDIT_WAIT_NANOS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /**
   * How long a run's guard waits for the audit of a stream the emitter is still filing (as a veth
   * site's does).
   */
  static final long AUDIT_WAIT_NANOS = 2_000_000_000L;

  @Override
  public Context emitterLoop() {
    return emitter.loop();
  }

  @Override
  public String listenHost() {
    return "127.0.0.1";
  }

  @Override
  public List<String> placed(List<String> command) {
    return command;
  }

  @Override
  public void close() {
    try {
      vertx.undeploy(emitter.deploymentID()).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      // Vert.x is closing; its close ends the emitter too
    }
  }
}
