package flushlab.targets;

import flushlab.core.HostPort;
import flushlab.netpath.ServerSite;
import io.vertx.core.Vertx;
import java.util.function.Consumer;

/**
 * What starting a target may use: the lab's Vert.x, the site of the target's network path (where
 * its emitter listens, where servers for it run), and a line to the user.
 */
public record TargetContext(Vertx vertx, ServerSite site, Consumer<String> announce) {
  /** Where the target's upstream, the emitter, is reached. */
  public HostPort emitter() {
    return site.emitter();
  }
}
