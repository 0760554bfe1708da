package flushlab.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import flushlab.run.ProbeOutcome;
import flushlab.scenario.ProbeScenario;
import java.time.Instant;
import java.util.List;

/**
 * What a probe scenario measured, as results.json carries it (snake_case): each of the lab's upload
 * servers with the settings the kernel granted it, and the probe's rows. {@code kind} is "probe" so
 * a reader tells it from a stream run's results at once.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProbeReport(
    int schemaVersion,
    String kind,
    String scenario,
    String description,
    String probe,
    String commandLine,
    String started,
    double seconds,
    boolean interrupted,
    Environment environment,
    List<ProbeOutcome.ServerResult> servers,
    String scenarioFile,
    String scenarioText) {

  /**
   * The report of a probe run: its outcome, with the scenario and the command and machine that
   * produced it.
   */
  public static ProbeReport of(
      ProbeScenario scenario, ProbeOutcome o, String commandLine, Environment environment) {
    return new ProbeReport(
        RunReport.SCHEMA_VERSION,
        "probe",
        scenario.name(),
        scenario.description(),
        scenario.probe().text(),
        commandLine,
        Instant.ofEpochMilli(o.startedMillis()).toString(),
        o.seconds(),
        o.interrupted(),
        environment,
        o.servers(),
        scenario.file().toString(),
        scenario.text());
  }
}
