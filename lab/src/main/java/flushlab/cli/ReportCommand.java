package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import flushlab.report.page.ReportPage;
import flushlab.report.page.ResultsFolder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** `flushlab report DIR`: (re)writes DIR/report.html from DIR/results.json. */
@Parameters(
    commandNames = "report",
    commandDescription =
        "Write report.html, the self-contained page of a results folder, from its results.json")
final class ReportCommand implements Command {
  @Parameter(description = "DIR (a results folder)")
  List<String> folders = new ArrayList<>();

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    if (folders.size() != 1) {
      err.println(
          "flushlab report: give one results folder (the one holding results.json); got "
              + folders.size());
      return EXIT_USAGE;
    }
    Path dir = Path.of(folders.get(0));
    try {
      String html = ReportPage.render(ResultsFolder.read(dir));
      Path page = dir.resolve("report.html");
      ResultsFolder.writeWhole(page, html);
      out.println("report: " + page);
      return EXIT_OK;
    } catch (ResultsFolder.BadFolder e) {
      err.println("flushlab report: " + e.getMessage());
      return EXIT_USAGE;
    }
  }
}
