package flushlab.targets;

import flushlab.core.HostPort;
import flushlab.tls.ClientTls;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The targets of one run, started in order and stopped together: where to connect to each, and what
 * was recorded about the proxies. If one cannot start, the ones already started are stopped before
 * the failure is reported. Used by the scenario runner, and meant for any command that measures
 * targets (the map, the console).
 */
public final class RunningTargets implements AutoCloseable {
  private final Map<String, StartedTarget> started = new LinkedHashMap<>();

  private RunningTargets() {}

  /** Starts each target with the context of its own network path. */
  public static RunningTargets start(List<Target> targets, Function<Target, TargetContext> ctx)
      throws TargetStartFailure {
    RunningTargets running = new RunningTargets();
    try {
      for (Target t : targets) running.started.put(t.name(), t.start(ctx.apply(t)));
    } catch (TargetStartFailure | RuntimeException e) {
      running.close();
      throw e;
    }
    return running;
  }

  /** Where the client connects to measure this target. */
  public HostPort address(Target t) {
    return started.get(t.name()).address();
  }

  /**
   * The process the lab started for this target, or -1 (a relay in this process, a target it did
   * not start).
   */
  public long pid(Target t) {
    return started.get(t.name()).pid();
  }

  /** How the client checks this target's TLS; null for plain TCP. */
  public ClientTls tls(Target t) {
    return started.get(t.name()).tls();
  }

  /** The proxy processes by target name, for the results. */
  public Map<String, ProcessInfo> processes() {
    Map<String, ProcessInfo> m = new LinkedHashMap<>();
    started.forEach(
        (name, s) -> {
          if (s.process() != null) m.put(name, s.process());
        });
    return m;
  }

  /** Stops every started target, last started first. */
  @Override
  public void close() {
    List<StartedTarget> all = List.copyOf(started.values());
    for (int i = all.size() - 1; i >= 0; i--) all.get(i).close();
    started.clear();
  }
}
