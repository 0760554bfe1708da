package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The warm-up runs once per process (C1 compiled what it ran; nothing compiles later), and says
 * when it was not run again.
 */
class WarmupTest {

  @Test
  void aSecondWarmUpInTheSameProcessIsNotRunAndSaysSo() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      String first = Warmup.runOnce(vertx, false);
      assertThat(first).contains(Warmup.description(false));
      long started = System.nanoTime();
      String second = Warmup.runOnce(vertx, false);
      long ms = (System.nanoTime() - started) / 1_000_000;
      System.out.println("WarmupTest: second warm-up call took " + ms + " ms: " + second);
      assertThat(second)
          .startsWith("this process ran it already: ")
          .endsWith(Warmup.description(false));
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
