package flushlab.report;

import flushlab.client.ClientProfile;
import flushlab.core.Json;
import flushlab.map.CellEvidence;
import flushlab.map.ShaperModel;
import flushlab.netpath.NetworkPath;
import flushlab.report.page.ReplayPage;
import flushlab.run.MapAnswer;
import flushlab.scenario.Cell;
import flushlab.scenario.Scenario;
import flushlab.stream.StreamSpec;
import flushlab.stream.Transfer;
import flushlab.targets.ProcessInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;

/**
 * `flushlab map --repro DIR`: what a user attaches to a vendor's bug report. {@code scenario.yaml}
 * runs the map's model as a built-in relay beside the direct path (no proxy needed) at the cell
 * where the target held the most; {@code map.json} is the answer with every cell the target showed;
 * {@code README.md} says what was mapped, what a streaming proxy would have done, what this one
 * did, and the commands; a proxy the lab started adds its version and its config as written and as
 * it parsed it; a model that was replayed adds {@code report.html}, each cell's stream through the
 * target and through the model overlaid ({@link ReplayPage}). Written into a sibling folder and
 * moved into place whole.
 */
public final class ReproBundle {
  private ReproBundle() {}

  /**
   * Refuses a folder that exists and is not empty, or whose parent cannot be written, before
   * anything is measured.
   */
  public static void checkWritable(Path dir) throws IOException {
    if (Files.exists(dir)) {
      if (!Files.isDirectory(dir)) throw new IOException(dir + " exists and is not a folder");
      try (var l = Files.list(dir)) {
        if (l.findAny().isPresent()) throw new IOException(dir + " exists and is not empty");
      }
    }
    Path parent = dir.toAbsolutePath().getParent();
    if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
      throw new IOException("its parent folder " + parent + " is not a writable folder");
    }
  }

  /**
   * Writes the bundle of {@code answer}, mapped by {@code scenario}; returns what it wrote, for a
   * line.
   */
  public static String write(
      Path dir, Scenario scenario, MapAnswer answer, Map<String, ProcessInfo> processes)
      throws IOException {
    Path parent = dir.toAbsolutePath().getParent();
    Path tmp = Files.createTempDirectory(parent, dir.getFileName() + ".partial-");
    try {
      Files.writeString(tmp.resolve("map.json"), Json.pretty(answer), StandardCharsets.UTF_8);
      CellEvidence cell = mostHeld(answer);
      ShaperModel model = answer.model();
      boolean runnable = model != null && model.chain() != null && cell != null;
      if (runnable)
        Files.writeString(
            tmp.resolve("scenario.yaml"),
            scenarioYaml(dir, scenario, answer, cell),
            StandardCharsets.UTF_8);
      ProcessInfo proxy = processes.values().stream().findFirst().orElse(null);
      if (proxy != null) {
        if (proxy.configText() != null)
          Files.writeString(
              tmp.resolve("proxy-config.txt"), proxy.configText(), StandardCharsets.UTF_8);
        if (proxy.effectiveConfig() != null) {
          Files.writeString(
              tmp.resolve("proxy-effective-config.txt"),
              proxy.effectiveConfig(),
              StandardCharsets.UTF_8);
        }
      }
      String page = ReplayPage.render(answer);
      if (page != null) Files.writeString(tmp.resolve("report.html"), page, StandardCharsets.UTF_8);
      Files.writeString(
          tmp.resolve("README.md"),
          readme(dir, scenario, answer, cell, proxy, runnable),
          StandardCharsets.UTF_8);
      if (Files.exists(dir)) Files.delete(dir); // checked empty before the map ran
      Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
      String files = "map.json, " + (page != null ? "report.html, " : "") + "README.md";
      return runnable
          ? "scenario.yaml, " + files
          : files
              + " (no scenario: "
              + (model == null || model.note() == null ? "no cell was measured" : model.note())
              + ")";
    } catch (IOException | RuntimeException e) {
      deleteQuietly(tmp);
      throw e;
    }
  }

  /** The cell where the target held the most frames per read: where its mechanism shows. */
  static CellEvidence mostHeld(MapAnswer answer) {
    return answer.cells().stream()
        .filter(c -> c.streams() > 0)
        .max(Comparator.comparingDouble(CellEvidence::framesPerRead))
        .orElse(null);
  }

  static String scenarioYaml(Path dir, Scenario scenario, MapAnswer answer, CellEvidence cell) {
    Cell base = scenario.cells().get(0);
    StreamSpec s = base.stream();
    StringBuilder y = new StringBuilder();
    y.append("# Written by `flushlab map --repro`: the map's answer for ")
        .append(answer.target())
        .append(" as a built-in relay,\n")
        .append(
            "# beside the direct path, at the cell where the target held the most. Run it from a clone of flushlab:\n")
        .append("#   ./run-scenario.sh ")
        .append(dir)
        .append("/scenario.yaml\n")
        .append("name: ")
        .append(name(answer.target()))
        .append('\n')
        .append("description: ")
        .append(
            Json.write(
                "the model "
                    + answer.model().chain()
                    + " of "
                    + answer.target()
                    + " ("
                    + answer.kind().text()
                    + "), beside the direct path"))
        .append('\n')
        .append("emitter:\n");
    if (s.endpoint().isOpenAi()) {
      y.append("  endpoint: ").append(s.endpoint().text()).append('\n');
    } else {
      y.append("  frame_size: ").append(Math.round(cell.bodyBytes())).append("B\n");
      if (!s.contentType().equals(StreamSpec.DEFAULT_CONTENT_TYPE))
        y.append("  content_type: ").append(Json.write(s.contentType())).append('\n');
      if (s.transfer() != Transfer.CHUNKED)
        y.append("  transfer: ").append(s.transfer().text()).append('\n');
    }
    y.append("  frames: ")
        .append(cell.framesPerStream())
        .append('\n')
        .append("  interval: ")
        .append(trimmed(cell.intervalMs()))
        .append("ms\n");
    // a compressing model holds only for clients that accept its coding: read as the client that
    // saw it
    boolean compressing = answer.model().chain().startsWith("compress=");
    ClientProfile profile = compressing ? ClientProfile.BROWSER : base.profile();
    if (profile != ClientProfile.DEFAULT)
      y.append("client:\n  profile: ").append(profile.text()).append('\n');
    NetworkPath path = scenario.path();
    if (path.isVeth()) y.append("path: veth\nmtu: ").append(path.mtu()).append('\n');
    y.append("targets:\n")
        .append("  - {name: direct, kind: direct}\n")
        .append("  - {name: model, kind: relay, shapers: [")
        .append(Json.write(answer.model().chain()))
        .append("]}\n")
        .append("runs: 3\n")
        // the map's own guards: at a 2 ms interval a 5 ms pacing tolerance excludes most runs on a
        // busy host
        .append("guards:\n  pacing_tolerance: ")
        .append(trimmed(scenario.guards().pacingToleranceNanos() / 1e6))
        .append("ms\n")
        .append("  certify: {runs: ")
        .append(scenario.guards().certifyRuns())
        .append(", frames: ")
        .append(scenario.guards().certifyCell().stream().frames())
        .append(", interval: ")
        .append(trimmed(scenario.guards().certifyCell().stream().intervalNanos() / 1e6))
        .append("ms}\n");
    return y.toString();
  }

  static String readme(
      Path dir,
      Scenario scenario,
      MapAnswer answer,
      CellEvidence cell,
      ProcessInfo proxy,
      boolean runnable) {
    StringBuilder r = new StringBuilder();
    r.append("# flushlab reproduction: ")
        .append(answer.target())
        .append("\n\n")
        .append("Mapped with `")
        .append(scenario.text())
        .append("`");
    if (proxy != null) {
      r.append(", a ")
          .append(proxy.proxy())
          .append(" the lab started (")
          .append(proxy.version())
          .append("; its config as written in ")
          .append("`proxy-config.txt`")
          .append(
              proxy.effectiveConfig() != null
                  ? ", as it parsed it in `proxy-effective-config.txt`"
                  : "")
          .append(")");
    }
    r.append(
            ".\n\n## Expected\n\nA proxy that streams passes each server-sent event on as it arrives: one event per read at the ")
        .append(
            "client (about 1.00 frames per read), none waiting more than a few milliseconds.\n\n")
        .append("## What happened\n\n")
        .append(answer.verdict())
        .append("\n\n");
    for (CellEvidence c : answer.cells()) r.append("- ").append(c.describe()).append('\n');
    r.append(
        "\nEvery cell in full, with the answer: `map.json`.\n\n## A relay that does the same\n\n");
    if (runnable) {
      r.append("The map's model: `")
          .append(answer.model().chain())
          .append("`. `scenario.yaml` runs it as flushlab's built-in relay beside ")
          .append("the direct path, at the cell where the target held the most (")
          .append(cell.label())
          .append("), no proxy needed:\n\n```\n./run-scenario.sh ")
          .append(dir)
          .append("/scenario.yaml\n")
          .append("java @lab/jvm.options -jar target/flushlab-all.jar map --shape '")
          .append(answer.model().chain())
          .append("'\n```\n\n")
          .append(
              "The first shows the relay's rows beside the direct path's; the second maps the relay as the target was mapped. ");
      r.append(
          answer.replay() == null
              ? "The model restates the answer: it was not replayed against the target's cells (the map replays it unless `--no-verify`).\n"
              : "Replayed on the target's path, cell by cell, as the same client: "
                  + answer.replay()
                  + ".\n");
    } else {
      r.append("None: ")
          .append(answer.model() == null ? "the map has no answer" : answer.model().note())
          .append(".\n");
    }
    if (!answer.replayedCells().isEmpty()) {
      r.append(
              "\n`report.html` draws each replayed cell's stream through the target and through the model on the same axes ")
          .append("(open it in a browser; it needs no network).\n");
    }
    return r.toString();
  }

  private static String name(String target) {
    String n = ("repro-" + target).replaceAll("[^A-Za-z0-9._-]", "_");
    return n.length() > 64 ? n.substring(0, 64) : n;
  }

  private static String trimmed(double ms) {
    return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
  }

  private static void deleteQuietly(Path p) {
    try (var walk = Files.walk(p)) {
      walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | RuntimeException ignored) {
      // best effort: a leftover .partial- folder names itself
    }
  }
}
