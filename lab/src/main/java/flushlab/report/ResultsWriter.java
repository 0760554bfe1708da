package flushlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.client.BatchResult;
import flushlab.core.IoErrors;
import flushlab.core.Json;
import flushlab.report.page.ReportPage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes a run's folder from its {@link RunReport}: results.json, results.csv, summary.md and the
 * HdrHistogram logs. Files go to a hidden, uniquely named ".partial" folder that is renamed into
 * place only when all of them are written, so an interrupted write never leaves a folder that looks
 * complete.
 */
public final class ResultsWriter {
  private ResultsWriter() {}

  /**
   * Checks, before anything is measured, that a run's folder can be written under {@code
   * resultsRoot}: creates the root if needed and writes and deletes a probe file in it.
   */
  public static void checkWritable(Path resultsRoot) throws IOException {
    Files.createDirectories(resultsRoot);
    Path probe = Files.createTempFile(resultsRoot, ".flushlab-probe-", ".tmp");
    Files.delete(probe);
  }

  /**
   * Where a run's results went; {@code fallbackReason} is set when the asked-for root could not
   * take them.
   */
  public record Written(Path folder, String fallbackReason) {}

  /**
   * Writes the run's folder under {@code resultsRoot}; if that fails (the disk filled, the folder
   * went away during a long run), under the temporary folder instead, and says why: a measured run
   * is never lost to a write error.
   */
  public static Written write(Path resultsRoot, RunReport r) throws IOException {
    try {
      return new Written(writeUnder(resultsRoot, r), null);
    } catch (IOException e) {
      Path fallback = Path.of(System.getProperty("java.io.tmpdir"), "flushlab-results");
      return new Written(
          writeUnder(fallback, r),
          "could not write under " + resultsRoot + " (" + IoErrors.describe(e) + ")");
    }
  }

  private static Path writeUnder(Path resultsRoot, RunReport r) throws IOException {
    String base =
        stamp(r.startedEpochMillis())
            + "-"
            + r.scenario()
            + (r.interrupted() ? "-interrupted" : "")
            + (r.certified() ? "" : "-uncertified");
    return writeFolder(
        resultsRoot,
        base,
        partial -> {
          // one JSON tree for the file and the page (building it runs every histogram's curves)
          JsonNode tree = Json.MAPPER.valueToTree(r);
          Files.writeString(
              partial.resolve("results.json"), Json.pretty(tree), StandardCharsets.UTF_8);
          Files.writeString(
              partial.resolve("results.csv"), ResultsCsv.render(r), StandardCharsets.UTF_8);
          Files.writeString(
              partial.resolve("summary.md"), SummaryMarkdown.render(r), StandardCharsets.UTF_8);
          Path hlogs = Files.createDirectory(partial.resolve("hlog"));
          for (RunReport.TargetReport t : r.targets()) {
            writeHlog(
                hlogs.resolve(fileName(t.name()) + ".ttft.hlog"),
                r,
                t.name(),
                b -> b.histograms().ttft());
            writeHlog(
                hlogs.resolve(fileName(t.name()) + ".gap.hlog"),
                r,
                t.name(),
                b -> b.histograms().gap());
            writeHlog(
                hlogs.resolve(fileName(t.name()) + ".emit_to_recv.hlog"),
                r,
                t.name(),
                b -> b.histograms().emitToRecv());
          }
          Files.writeString(
              partial.resolve("report.html"), ReportPage.render(tree), StandardCharsets.UTF_8);
        });
  }

  /**
   * A probe scenario's folder: results.json, summary.md and report.html, with the same guarantees
   * as a run's.
   */
  public static Written write(Path resultsRoot, ProbeReport r, long startedEpochMillis)
      throws IOException {
    String base =
        stamp(startedEpochMillis) + "-" + r.scenario() + (r.interrupted() ? "-interrupted" : "");
    FolderContent content =
        partial -> {
          Files.writeString(
              partial.resolve("results.json"), Json.pretty(r), StandardCharsets.UTF_8);
          Files.writeString(
              partial.resolve("summary.md"),
              ProbeSummaryMarkdown.render(r),
              StandardCharsets.UTF_8);
          Files.writeString(
              partial.resolve("report.html"),
              ReportPage.render(Json.MAPPER.valueToTree(r)),
              StandardCharsets.UTF_8);
        };
    try {
      return new Written(writeFolder(resultsRoot, base, content), null);
    } catch (IOException e) {
      Path fallback = Path.of(System.getProperty("java.io.tmpdir"), "flushlab-results");
      return new Written(
          writeFolder(fallback, base, content),
          "could not write under " + resultsRoot + " (" + IoErrors.describe(e) + ")");
    }
  }

  private static String stamp(long epochMillis) {
    return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
        .withZone(ZoneOffset.UTC)
        .format(Instant.ofEpochMilli(epochMillis));
  }

  /** Writes a folder's files. */
  private interface FolderContent {
    void writeInto(Path partial) throws IOException;
  }

  /**
   * Writes into a private partial folder, then renames it into place whole: a reader never sees a
   * half-written folder, and two runs started in the same second never write into one.
   */
  private static Path writeFolder(Path resultsRoot, String base, FolderContent content)
      throws IOException {
    Files.createDirectories(resultsRoot);
    Path partial = Files.createTempDirectory(resultsRoot, "." + base + ".partial-");
    try {
      content.writeInto(partial);
    } catch (IOException | RuntimeException | Error e) {
      deleteQuietly(partial); // nothing half-written is left behind; the caller reports the failure
      throw e;
    }
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

  private static void deleteQuietly(Path folder) {
    try (var files = Files.walk(folder)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException | RuntimeException e) {
      // best effort: a leftover hidden folder is all that remains
    }
  }

  /** A target name as a file name: letters, digits, '-', '_' and '.' kept, anything else '_'. */
  static String fileName(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /**
   * One target's log: an untagged interval per kept run, stamped with the run's real start and end,
   * so HistogramLogProcessor's default invocation reads it (it skips tagged intervals unless asked
   * for a tag) and its time options select runs. The comment line names each run's cell.
   */
  private static void writeHlog(
      Path file, RunReport r, String target, Function<BatchResult, Histogram> pick)
      throws IOException {
    try (PrintStream ps =
        new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
      HistogramLogWriter w = new HistogramLogWriter(ps);
      w.outputLogFormatVersion();
      w.outputStartTime(r.startedEpochMillis());
      w.setBaseTime(r.startedEpochMillis());
      w.outputComment(
          "flushlab: target "
              + target
              + "; values in nanoseconds; one interval per kept run, in run order");
      w.outputLegend();
      for (RunReport.CellReport c : r.cells()) {
        if (!c.target().equals(target)) continue;
        for (RunReport.RunEntry run : c.runs()) {
          if (run.excluded()) continue;
          Histogram h = pick.apply(run.metrics()).copy();
          h.setStartTimeStamp(run.startedEpochMs());
          h.setEndTimeStamp(Math.max(run.endedEpochMs(), run.startedEpochMs() + 1));
          w.outputComment("cell " + c.cell() + " (" + c.cellLabel() + "), run " + run.run());
          w.outputIntervalHistogram(h);
        }
      }
    }
  }
}
