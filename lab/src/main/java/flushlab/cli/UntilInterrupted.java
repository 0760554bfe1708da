package flushlab.cli;

import io.vertx.core.Vertx;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * For the server commands: serve until Ctrl-C (or SIGTERM), then close Vert.x cleanly and exit 130.
 */
final class UntilInterrupted {
  private UntilInterrupted() {}

  static int await(Vertx vertx) throws Exception {
    CountDownLatch stop = new CountDownLatch(1);
    try (Interruption signal = new Interruption(stop::countDown)) {
      stop.await();
      vertx.close().await(5, TimeUnit.SECONDS);
      signal.done(Command.EXIT_INTERRUPTED);
    }
    return Command.EXIT_INTERRUPTED;
  }
}
