package flushlab.relay;

import flushlab.relay.shaper.ShaperRegistry;
import java.util.List;

/**
 * What one new connection through a relay gets: the shaper chain for its responses, and how long
 * each piece of its request waits before it goes upstream (the request direction's latency).
 */
public record ConnectionPlan(List<ShaperRegistry.Spec> response, long requestDelayNanos) {
  public static ConnectionPlan of(List<ShaperRegistry.Spec> response) {
    return new ConnectionPlan(response, 0);
  }
}
