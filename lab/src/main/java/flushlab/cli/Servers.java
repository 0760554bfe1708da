package flushlab.cli;

import flushlab.core.HostPort;
import flushlab.run.Warmup;
import io.vertx.core.Deployable;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/** What the server commands share: deploy and listen (or say plainly why not), then warm up. */
final class Servers {
  private Servers() {}

  /**
   * Deploys the server; true when it listens. Otherwise prints "cannot listen on ADDRESS: why" (a
   * port in use, an address not on this machine), closes Vert.x, and returns false. With {@code
   * tls}, the warm-up also runs the TLS paths the server will serve.
   */
  static boolean listen(
      Vertx vertx,
      Deployable server,
      String command,
      HostPort at,
      PrintStream err,
      Warmup.Focus focus,
      boolean tls)
      throws Exception {
    try {
      vertx.deployVerticle(server).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      err.println("flushlab " + command + ": cannot listen on " + at + ": " + Main.describe(e));
      vertx.close();
      return false;
    }
    // A cold JVM answers its first requests 100+ ms late; pay that here, not in someone's
    // measurement.
    Warmup.run(vertx, focus, tls);
    return true;
  }
}
