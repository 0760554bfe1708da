package flushlab.cli;

import static flushlab.Cli.flushlab;
import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Cli.Ran;
import flushlab.LabTest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The client prints its own CPU per frame over the measured batch (issue 37: the client's cost
 * beside the emitter's): a positive figure no larger than the batch's wall time on every core.
 */
class ClientCostTest extends LabTest {
  private static final Pattern BATCH =
      Pattern.compile("batch ([0-9.]+) s, [0-9.]+ MB/s read, client CPU ([0-9.]+) us a frame");
  private static final Pattern FRAMES = Pattern.compile("frames (\\d+) ");

  @Test
  void theClientSaysWhatEachFrameCostItOverTheBatch() {
    Ran r =
        flushlab(
            "client",
            "--target",
            "http://127.0.0.1:" + lab.emitter.port() + "/sse?frames=200&interval=1ms",
            "--requests",
            "5",
            "--concurrency",
            "5");
    assertThat(r.code()).as(r.err()).isZero();
    Matcher batch = BATCH.matcher(r.out());
    assertThat(batch.find()).as(r.out()).isTrue();
    Matcher frames = FRAMES.matcher(r.out());
    assertThat(frames.find()).as(r.out()).isTrue();
    double seconds = Double.parseDouble(batch.group(1));
    double usPerFrame = Double.parseDouble(batch.group(2));
    long n = Long.parseLong(frames.group(1));
    assertThat(n).isEqualTo(1000);
    assertThat(usPerFrame).as(r.out()).isPositive();
    // CPU over the batch cannot exceed its wall time on every core this JVM may use
    assertThat(usPerFrame * n / 1e6)
        .as(r.out())
        .isLessThanOrEqualTo(seconds * Runtime.getRuntime().availableProcessors());
  }
}
