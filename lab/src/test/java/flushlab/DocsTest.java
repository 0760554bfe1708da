package flushlab;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.relay.shaper.ShaperReference;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's reference sections are generated from the code; this keeps them in step. */
class DocsTest {
  @Test
  void readmeCarriesTheGeneratedShaperReferenceAndTheTwoCommands() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    assertThat(readme).contains(ShaperReference.markdown());
    assertThat(readme).contains("./run-scenario.sh").contains("mvn verify");
  }
}
