package flushlab.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C and SIGTERM for a command that must finish cleanly: the signal calls {@code onSignal}
 * (stop measuring), then the JVM waits for the command to say it is done (results written, proxies
 * stopped) and exits with the code the command returned, 130 for an interrupted run. Without this
 * the JVM would exit 143 on SIGTERM, whatever the command returned, because a signal starts the
 * JVM's shutdown and System.exit cannot change its status afterwards.
 */
final class Interruption implements AutoCloseable {
  private static final long GRACE_SECONDS = 60;

  private final CountDownLatch done = new CountDownLatch(1);
  private final Thread hook;
  private volatile int exitCode = Command.EXIT_INTERRUPTED;

  Interruption(Runnable onSignal) {
    hook =
        new Thread(
            () -> {
              onSignal.run();
              try {
                done.await(GRACE_SECONDS, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              System.out.flush();
              System.err.flush();
              Runtime.getRuntime().halt(exitCode);
            },
            "flushlab-interruption");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** The command finished with this exit code (the one the JVM exits with if a signal came). */
  void done(int code) {
    exitCode = code;
    done.countDown();
  }

  @Override
  public void close() {
    done.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // a signal came: the hook is running and exits with the code given to done()
    }
  }
}
