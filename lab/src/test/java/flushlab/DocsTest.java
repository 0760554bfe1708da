package flushlab;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.relay.shaper.ShaperReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs' generated sections are in step with the code, the README stays a short front door, and
 * no link is broken.
 */
class DocsTest {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

  @Test
  void theShaperPageCarriesTheGeneratedReference() throws Exception {
    assertThat(Files.readString(Path.of("docs/SHAPERS.md"))).contains(ShaperReference.markdown());
  }

  @Test
  void theReadmeIsAShortFrontDoorWithTheTwoCommandsAndAContents() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    assertThat(readme).contains("./run-scenario.sh").contains("mvn verify").contains("## Contents");
    assertThat(readme.split("\n")).as("README lines").hasSizeLessThanOrEqualTo(250);
  }

  @Test
  void everyRelativeLinkInTheDocsNamesAFileThatExists() throws Exception {
    List<Path> pages =
        new ArrayList<>(List.of(Path.of("README.md"), Path.of("scenarios/README.md")));
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path page : pages) broken.addAll(brokenLinks(page));
    assertThat(broken).isEmpty();
  }

  private static List<String> brokenLinks(Path page) throws IOException {
    List<String> broken = new ArrayList<>();
    Matcher m = LINK.matcher(Files.readString(page));
    while (m.find()) {
      String target = m.group(1);
      if (target.contains("://")) continue;
      Path resolved = page.toAbsolutePath().getParent().resolve(target).normalize();
      if (!Files.exists(resolved)) broken.add(page + " -> " + target);
    }
    return broken;
  }
}
