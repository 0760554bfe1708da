package flushlab.targets;

import flushlab.core.HostPort;
import flushlab.netpath.VethSite;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import flushlab.tls.ClientTls;
import flushlab.tls.ServerTls;
import java.util.concurrent.TimeUnit;

/**
 * A built-in relay deployed in the lab's Vert.x, in front of its emitter, on an ephemeral loopback
 * port.
 */
final class StartedRelay implements StartedTarget {
  private final TargetContext ctx;
  private final Relay relay;

  private final boolean tls;

  private StartedRelay(TargetContext ctx, Relay relay, boolean tls) {
    this.tls = tls;
    this.ctx = ctx;
    this.relay = relay;
  }

  static StartedTarget start(Target.Relay t, TargetContext ctx) throws TargetStartFailure {
    if (ctx.site() instanceof VethSite veth) {
      if (t.speaksTls())
        throw new TargetStartFailure(
            "target "
                + t.name()
                + ": tls: true is for relays on loopback in this version; "
                + "on a veth path, put a proxy with a TLS template (scenarios/proxies/*-tls.*) in front instead");
      return StartedChildRelay.start(t, veth, ctx);
    }
    RelayOptions options =
        new RelayOptions(
            "127.0.0.1",
            0,
            ctx.emitter().host(),
            ctx.emitter().port(),
            t.shapers(),
            t.poolUpstream());
    if (t.speaksTls()) options = options.withTls(ServerTls.selfSigned());
    Relay relay = new Relay(options, RelayLog.SILENT);
    try {
      ctx.vertx().deployVerticle(relay).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new TargetStartFailure(
          "target " + t.name() + ": the relay cannot listen: " + e.getMessage(), e);
    }
    return new StartedRelay(ctx, relay, t.speaksTls());
  }

  @Override
  public ClientTls tls() {
    return tls ? ServerTls.selfSigned().pinnedByClients() : null;
  }

  @Override
  public HostPort address() {
    return new HostPort("127.0.0.1", relay.port());
  }

  @Override
  public void close() {
    try {
      ctx.vertx().undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the lab is shutting down anyway; Vert.x's close ends it
    }
  }
}
