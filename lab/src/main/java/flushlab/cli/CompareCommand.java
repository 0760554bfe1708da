package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.fasterxml.jackson.databind.JsonNode;
import flushlab.core.IoErrors;
import flushlab.report.page.ComparePage;
import flushlab.report.page.ResultsFolder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * `flushlab compare A B`: one page with two results folders overlaid and their differences beyond
 * the noise.
 */
@Parameters(
    commandNames = "compare",
    commandDescription = "Compare two results folders (before, after) on one self-contained page")
final class CompareCommand implements Command {
  @Parameter(description = "A B (two results folders: before and after)")
  List<String> folders = new ArrayList<>();

  @Parameter(
      names = "--out",
      description = "The page to write (default: compare-<A>-vs-<B>.html in the current folder)")
  String outFile;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    if (folders.size() != 2) {
      err.println(
          "flushlab compare: give two results folders, A (before) and B (after); got "
              + folders.size());
      return EXIT_USAGE;
    }
    Path a = Path.of(folders.get(0));
    Path b = Path.of(folders.get(1));
    String nameA = a.toAbsolutePath().normalize().getFileName().toString();
    String nameB = b.toAbsolutePath().normalize().getFileName().toString();
    Path page =
        outFile != null ? Path.of(outFile) : Path.of("compare-" + nameA + "-vs-" + nameB + ".html");
    try {
      ResultsFolder.checkWritable(page);
    } catch (IOException e) {
      err.println(
          "flushlab compare: --out "
              + page
              + ": cannot write the page there ("
              + IoErrors.describe(e)
              + "); nothing was read");
      return EXIT_USAGE;
    }
    try {
      JsonNode ra = ResultsFolder.read(a);
      JsonNode rb = ResultsFolder.read(b);
      for (JsonNode r : new JsonNode[] {ra, rb}) {
        String kind = r.path("kind").asText();
        if ("probe".equals(kind)) {
          err.println(
              "flushlab compare: compares run and map folders; a probe folder's report.html has its figures");
          return EXIT_USAGE;
        }
      }
      ResultsFolder.writeWhole(page, ComparePage.render(nameA, ra, nameB, rb));
      out.println("compare: " + page.toAbsolutePath().normalize());
      return EXIT_OK;
    } catch (ResultsFolder.BadFolder e) {
      err.println("flushlab compare: " + e.getMessage());
      return EXIT_USAGE;
    }
  }
}
