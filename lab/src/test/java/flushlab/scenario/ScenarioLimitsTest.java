package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A scenario file cannot make the loader use more than a little memory before it is refused. */
class ScenarioLimitsTest {

  /** Bytes this thread has allocated so far (HotSpot's per-thread counter). */
  static long allocated() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  @Test
  void aHugeSweepIsRefusedBeforeItsCellsAreBuilt() {
    StringBuilder yaml =
        new StringBuilder("name: big\ntargets: [{name: d, kind: direct}]\nsweep:\n  frames: [");
    for (int i = 1; i <= 1000; i++) yaml.append(i == 1 ? "" : ",").append(i);
    yaml.append("]\n  think: [");
    for (int i = 1; i <= 1000; i++) yaml.append(i == 1 ? "" : ",").append(i).append("ms");
    yaml.append("]\n");
    long before = allocated();
    ScenarioError e =
        catchThrowableOfType(ScenarioError.class, () -> ScenarioFixture.parse(yaml.toString()));
    long used = allocated() - before;
    assertThat(e.messages())
        .singleElement()
        .asString()
        .contains("makes 1000000 cells (allowed: at most 1000)");
    // building the million cells took ~1.45 GB; refusing them first takes a few MB (the YAML
    // itself)
    assertThat(used).as("bytes allocated while refusing").isLessThan(64L << 20);
  }

  @Test
  void aFileOverTheSizeLimitIsNotRead(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("big.yaml");
    Files.writeString(f, "name: big\n# " + "x".repeat((int) ScenarioLoader.MAX_FILE_BYTES) + "\n");
    ScenarioError e = catchThrowableOfType(ScenarioError.class, () -> ScenarioLoader.load(f));
    assertThat(e.messages())
        .singleElement()
        .asString()
        .contains(f.toString())
        .contains("allowed: at most " + ScenarioLoader.MAX_FILE_BYTES + " bytes")
        .contains("nothing was read");
  }

  @Test
  void aMissingFileIsNamedAsMissing(@TempDir Path dir) {
    ScenarioError e =
        catchThrowableOfType(
            ScenarioError.class, () -> ScenarioLoader.load(dir.resolve("nope.yaml")));
    assertThat(e.messages())
        .singleElement()
        .asString()
        .contains("no such file or folder: " + dir.resolve("nope.yaml"));
  }
}
