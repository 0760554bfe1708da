package flushlab.report;

import flushlab.client.BatchResult;
import flushlab.core.Json;
import flushlab.scenario.FlushTrigger;
import flushlab.scenario.RunRecord;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioRunner;
import flushlab.scenario.TargetCellResult;
import flushlab.scenario.TargetSpec;
import flushlab.core.IoErrors;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes a run's folder: results.json, results.csv, summary.md and the HdrHistogram logs. Files
 * go to a hidden, uniquely named ".partial" folder that is renamed into place only when all of
 * them are written, so an interrupted write never leaves a folder that looks complete.
 */
public final class ResultsWriter {
  public static final int SCHEMA_VERSION = 1;

  private ResultsWriter() {}

  /**
   * Checks, before anything is measured, that a run's folder can be written under {@code resultsRoot}:
   * creates the root if needed and writes and deletes a probe file in it.
   */
  public static void checkWritable(Path resultsRoot) throws IOException {
    Files.createDirectories(resultsRoot);
    Path probe = Files.createTempFile(resultsRoot, ".flushlab-probe-", ".tmp");
    Files.delete(probe);
  }

  /** Where a run's results went; {@code fallbackReason} is set when the asked-for root could not take them. */
  public record Written(Path folder, String fallbackReason) {}

  /**
   * Writes the run's folder under {@code resultsRoot}; if that fails (the disk filled, the folder
   * went away during a long run), under the temporary folder instead, and says why: a measured
   * run is never lost to a write error.
   */
  public static Written write(Path resultsRoot, Scenario s, ScenarioRunner.Outcome o, String command,
      Map<String, Object> environment) throws IOException {
    try {
      return new Written(writeUnder(resultsRoot, s, o, command, environment), null);
    } catch (IOException e) {
      Path fallback = Path.of(System.getProperty("java.io.tmpdir"), "flushlab-results");
      return new Written(writeUnder(fallback, s, o, command, environment),
          "could not write under " + resultsRoot + " (" + IoErrors.describe(e) + ")");
    }
  }

  private static Path writeUnder(Path resultsRoot, Scenario s, ScenarioRunner.Outcome o, String command,
      Map<String, Object> environment) throws IOException {
    String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
        .format(Instant.ofEpochMilli(o.startedEpochMillis()));
    String base = stamp + "-" + s.name() + (o.interrupted() ? "-interrupted" : "") + (o.certified() ? "" : "-uncertified");
    Files.createDirectories(resultsRoot);
    // A private partial folder: two runs started in the same second never write into the same one.
    Path partial = Files.createTempDirectory(resultsRoot, "." + base + ".partial-");
    Files.writeString(partial.resolve("results.json"), Json.pretty(json(s, o, command, environment)), StandardCharsets.UTF_8);
    Files.writeString(partial.resolve("results.csv"), csv(o), StandardCharsets.UTF_8);
    Files.writeString(partial.resolve("summary.md"), SummaryMarkdown.render(s, o, command, environment), StandardCharsets.UTF_8);
    writeHlog(partial.resolve("ttft.hlog"), o, BatchResult::ttftHistogram);
    writeHlog(partial.resolve("gap.hlog"), o, BatchResult::gapHistogram);
    writeHlog(partial.resolve("emit_to_recv.hlog"), o, BatchResult::emitToRecvHistogram);
    // rename(2) onto an existing non-empty folder fails (ENOTEMPTY, which Java reports as a plain
    // FileSystemException), so of two runs racing for one name, one gets it and the other takes
    // the next suffix.
    for (int i = 1; ; i++) {
      Path done = resultsRoot.resolve(i == 1 ? base : base + "-" + i);
      if (Files.exists(done)) continue;
      try {
        return Files.move(partial, done, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileSystemException e) {
        if (!Files.exists(done) || i > 1000) throw e; // not the race: a real failure
      }
    }
  }

  /** The results.json tree without writing files (tests check fields with it). */
  public static Map<String, Object> jsonForTest(Scenario s, ScenarioRunner.Outcome o) {
    return json(s, o, "test", Map.of());
  }

  static Map<String, Object> json(Scenario s, ScenarioRunner.Outcome o, String command, Map<String, Object> env) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("schema_version", SCHEMA_VERSION);
    root.put("scenario", s.name());
    root.put("status", o.interrupted() ? "interrupted" : o.certified() ? "complete" : "uncertified");
    root.put("started_utc", Instant.ofEpochMilli(o.startedEpochMillis()).toString());
    root.put("elapsed_s", Math.round(o.elapsedNanos() / 1e7) / 100.0);
    root.put("command", command);
    root.put("environment", env);
    root.put("scenario_text", s.text());
    root.put("scenario_resolved", s.resolved());
    List<Map<String, Object>> targets = new ArrayList<>();
    for (TargetSpec t : s.targets()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", t.name());
      m.put("kind", t.kind().name().toLowerCase());
      m.put("description", t.describe());
      if (t.kind() == TargetSpec.Kind.EXTERNAL) {
        m.put("address", t.host() + ":" + t.port());
        m.put("external_reason", t.reason());
      }
      if (o.processes().containsKey(t.name())) m.put("process", o.processes().get(t.name()));
      targets.add(m);
    }
    root.put("targets", targets);
    Map<String, Object> guards = new LinkedHashMap<>();
    guards.put("pacing_tolerance_ms", s.guards().pacingToleranceNanos() / 1e6);
    guards.put("certify_runs", s.guards().certifyRuns());
    guards.put("certify_max_frames_per_read", s.guards().certifyMaxFramesPerRead());
    root.put("guards", guards);
    Map<String, Object> cert = new LinkedHashMap<>();
    cert.put("certified", o.certified());
    cert.put("direct_frames_per_read", o.certifiedFramesPerRead());
    cert.put("runs", runs(o.certification()));
    root.put("certification", cert);
    List<Map<String, Object>> cells = new ArrayList<>();
    for (TargetCellResult r : o.results()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("cell", r.cell().index());
      m.put("cell_label", r.cell().label());
      m.put("swept", r.cell().swept());
      m.put("target", r.target());
      m.put("runs_total", r.runs().size());
      m.put("runs_excluded", r.excludedRuns());
      m.put("metrics", r.included());
      m.put("runs", runs(r.runs()));
      cells.add(m);
    }
    root.put("cells", cells);
    root.put("flush_trigger_map", o.triggers());
    root.put("adaptive", o.bisection());
    return root;
  }

  private static List<Map<String, Object>> runs(List<RunRecord> runs) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (RunRecord r : runs) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("run", r.run());
      m.put("excluded", r.excluded());
      m.put("exclusion_reason", r.exclusionReason());
      m.put("emitter_max_lateness_ms", r.maxPacingLatenessNanos() / 1e6);
      m.put("unaudited_streams", r.unauditedStreams());
      m.put("metrics", r.result());
      out.add(m);
    }
    return out;
  }

  static String csv(ScenarioRunner.Outcome o) {
    StringBuilder sb = new StringBuilder(
        "cell,cell_label,target,runs,runs_excluded,streams_ok,errors,frames,frames_per_read,ttft_p50_ms,ttft_p99_ms,"
            + "gap_p50_ms,gap_p99_ms,gap_max_ms,emit_to_recv_p50_ms,emit_to_recv_p99_ms,release_bytes_p50,release_gap_p50_ms,lost_frames,corrupt_frames\n");
    for (TargetCellResult r : o.results()) {
      BatchResult b = r.included();
      sb.append(r.cell().index()).append(',').append('"').append(r.cell().label().replace("\"", "'")).append('"').append(',')
          .append(r.target()).append(',').append(r.runs().size()).append(',').append(r.excludedRuns()).append(',')
          .append(b.streamsOk()).append(',').append(b.errorCount()).append(',').append(b.frames()).append(',');
      if (SummaryMarkdown.noMeasurement(r) != null) {
        sb.append(",,,,,,,,,,,\n"); // no kept stream: empty, not zero (a zero would read as a measurement)
        continue;
      }
      sb.append(b.framesPerRead()).append(',').append(b.ttftMs().p50()).append(',').append(b.ttftMs().p99()).append(',')
          .append(b.gapMs().p50()).append(',').append(b.gapMs().p99()).append(',').append(b.gapMs().max()).append(',')
          .append(b.emitToRecvMs().p50()).append(',').append(b.emitToRecvMs().p99()).append(',')
          .append(b.releaseBytes().p50()).append(',').append(b.releaseGapMs().p50()).append(',')
          .append(b.lostFrames()).append(',').append(b.corruptFrames()).append('\n');
    }
    return sb.toString();
  }

  /** One interval histogram per cell and target, tagged "cellN.target", readable by HistogramLogAnalyzer. */
  private static void writeHlog(Path file, ScenarioRunner.Outcome o, java.util.function.Function<BatchResult, Histogram> pick)
      throws IOException {
    try (PrintStream ps = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
      HistogramLogWriter w = new HistogramLogWriter(ps);
      w.outputLogFormatVersion();
      w.outputStartTime(o.startedEpochMillis());
      w.outputComment("flushlab: values in nanoseconds; one tag per cell and target");
      w.outputLegend();
      long t = o.startedEpochMillis();
      for (TargetCellResult r : o.results()) {
        Histogram h = pick.apply(r.included()).copy();
        h.setTag(r.cell().tag() + "." + r.target());
        h.setStartTimeStamp(t);
        h.setEndTimeStamp(t + 1000);
        t += 1000;
        w.outputIntervalHistogram(h);
      }
    }
  }
}
