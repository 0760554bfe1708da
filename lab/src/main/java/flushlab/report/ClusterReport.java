package flushlab.report;

import flushlab.cluster.ClusterOutcome;
import flushlab.scenario.Scenario;
import java.time.Instant;

/**
 * A scenario run on a lab's agents, as its results folder records it: the outcome (merged and
 * per-agent figures, clocks, missing agents), with the scenario and the command that ran it.
 */
public record ClusterReport(int schemaVersion, String kind, String scenario, String description, String commandLine, String started,
    boolean partial, Environment environment, ClusterOutcome outcome, String scenarioFile, String scenarioText) {

  public static ClusterReport of(Scenario s, ClusterOutcome o, String commandLine, Environment environment) {
    return new ClusterReport(RunReport.SCHEMA_VERSION, "cluster", s.name(), s.description(), commandLine,
        Instant.ofEpochMilli(o.startedEpochMillis()).toString(), o.partial(), environment, o, s.file().toString(), s.text());
  }
}
