package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import flushlab.scenario.ProbeScenario;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioError;
import flushlab.scenario.ScenarioFile;
import flushlab.scenario.ScenarioLoader;
import flushlab.scenario.ScenarioReference;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

@Parameters(
    commandNames = "validate",
    commandDescription = "Check scenario files without running them (exit 2 on a mistake)")
final class ValidateCommand implements Command {
  @Parameter(description = "FILE...")
  List<String> files = new ArrayList<>();

  @Parameter(
      names = "--reference",
      description = "Print the scenario key reference (Markdown) and exit")
  boolean reference;

  @Override
  public int run(PrintStream out, PrintStream err) {
    if (reference) {
      out.print(ScenarioReference.markdown());
      return EXIT_OK;
    }
    if (files.isEmpty()) throw new IllegalArgumentException("give one or more scenario files");
    int rc = EXIT_OK;
    for (String f : files) {
      try {
        ScenarioFile any = ScenarioLoader.loadAny(Path.of(f));
        if (any instanceof ProbeScenario p) {
          out.printf("%s: ok (probe %s, %d server(s))%n", f, p.probe().text(), p.servers().size());
          continue;
        }
        Scenario s = (Scenario) any;
        out.printf(
            "%s: ok (%d cells x %d targets x %d runs, about %.0fs)%n",
            f, s.cells().size(), s.targets().size(), s.runs(), s.expectedSeconds());
      } catch (ScenarioError e) {
        for (String m : e.messages()) err.println(m);
        rc = EXIT_USAGE;
      }
    }
    return rc;
  }
}
