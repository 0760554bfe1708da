package flushlab.target;

import flushlab.core.HostPort;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import java.util.concurrent.TimeUnit;

/** A built-in relay deployed in the lab's Vert.x, in front of its emitter, on an ephemeral loopback port. */
final class StartedRelay implements StartedTarget {
  private final TargetContext ctx;
  private final Relay relay;

  private StartedRelay(TargetContext ctx, Relay relay) {
    this.ctx = ctx;
    this.relay = relay;
  }

  static StartedTarget start(Target.Relay t, TargetContext ctx) throws TargetStartFailure {
    if (ctx.site() instanceof flushlab.netpath.VethSite veth) return StartedChildRelay.start(t, veth, ctx);
    Relay relay = new Relay(new RelayOptions("127.0.0.1", 0, ctx.emitter().host(), ctx.emitter().port(), t.shapers(),
        t.poolUpstream()), RelayLog.SILENT);
    try {
      ctx.vertx().deployVerticle(relay).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new TargetStartFailure("target " + t.name() + ": the relay cannot listen: " + e.getMessage(), e);
    }
    return new StartedRelay(ctx, relay);
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
