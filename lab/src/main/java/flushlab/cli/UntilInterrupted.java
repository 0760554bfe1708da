package flushlab.cli;

import io.vertx.core.Vertx;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** For the server commands: block until Ctrl-C (or SIGTERM), then close Vert.x cleanly. */
final class UntilInterrupted {
  private UntilInterrupted() {}

  static void await(Vertx vertx) throws Exception {
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
    stop.await();
    vertx.close().await(5, TimeUnit.SECONDS);
  }
}
