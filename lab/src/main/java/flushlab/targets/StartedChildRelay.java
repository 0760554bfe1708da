package flushlab.targets;

import flushlab.core.HostPort;
import flushlab.netpath.LabChild;
import flushlab.netpath.VethLink;
import flushlab.netpath.VethSite;
import flushlab.relay.shaper.ShaperRegistry;

/**
 * A built-in relay run as a child process inside a veth path's namespace, in front of the emitter
 * there.
 */
final class StartedChildRelay implements StartedTarget {
  private final LabChild child;

  private StartedChildRelay(LabChild child) {
    this.child = child;
  }

  static StartedChildRelay start(Target.Relay t, VethSite site, TargetContext ctx)
      throws TargetStartFailure {
    try {
      LabChild child =
          site.startRelay(
              t.name(),
              t.shapers().stream().map(ShaperRegistry.Spec::text).toList(),
              t.poolUpstream());
      ctx.announce().accept("started " + t.name() + ": " + t.describe() + ", " + child);
      return new StartedChildRelay(child);
    } catch (VethLink.Unavailable e) {
      throw new TargetStartFailure("target " + t.name() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public long pid() {
    return child.pid();
  }

  @Override
  public HostPort address() {
    return child.address();
  }

  @Override
  public void close() {
    child.close();
  }
}
