package flushlab.scenario;

import java.nio.file.Path;

/**
 * A validated scenario file: a stream scenario ({@link Scenario}) or a TCP-layer probe scenario
 * ({@link ProbeScenario}).
 */
public sealed interface ScenarioFile permits Scenario, ProbeScenario {
  String name();

  Path file();
}
