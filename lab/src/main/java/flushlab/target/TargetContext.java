package flushlab.target;

import flushlab.core.HostPort;
import io.vertx.core.Vertx;
import java.util.function.Consumer;

/** What starting a target may use: the lab's Vert.x, where its emitter listens, and a line to the user. */
public record TargetContext(Vertx vertx, HostPort emitter, Consumer<String> announce) {}
