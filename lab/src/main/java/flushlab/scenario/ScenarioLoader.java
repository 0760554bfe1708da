package flushlab.scenario;

import flushlab.core.IoErrors;
import flushlab.core.UserFiles;
import flushlab.stream.ResponseHeader;
import flushlab.targets.Target;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and checks a scenario file. Every mistake gives one message naming the file, line, column,
 * the key, and what is allowed; all mistakes are reported together; nothing runs and nothing is
 * written until the file is clean. Each part of the file has its reader (settings, sweep, targets,
 * guards, adaptive); the keys they allow, check and default come from {@link Keys}.
 */
public final class ScenarioLoader {
  public static final int MAX_CELLS = 1000;

  /** A scenario is a page of YAML; anything near this is a mistake (or an attack on the parser). */
  public static final long MAX_FILE_BYTES = 1L << 20;

  /** A config template is a page of proxy config. */
  public static final long MAX_TEMPLATE_BYTES = 256L << 10;

  private ScenarioLoader() {}

  /**
   * A stream scenario; a probe scenario is refused here, saying that {@code flushlab run} runs it.
   */
  public static Scenario load(Path path) throws ScenarioError {
    ScenarioFile f = loadAny(path);
    if (f instanceof Scenario s) return s;
    throw new ScenarioError(
        List.of(
            path
                + ": is a probe scenario (probe: "
                + ((ProbeScenario) f).probe().text()
                + "), not a stream scenario; 'flushlab run "
                + path
                + "' runs it"));
  }

  /** A stream scenario, or a probe scenario when the file says {@code probe:}. */
  public static ScenarioFile loadAny(Path path) throws ScenarioError {
    String text;
    try {
      if (Files.exists(path))
        UserFiles.regular(path, "the scenario"); // a missing one is named below, as missing
      long size = Files.size(path);
      if (size > MAX_FILE_BYTES) {
        throw new ScenarioError(
            List.of(
                path
                    + ": the scenario is "
                    + size
                    + " bytes (allowed: at most "
                    + MAX_FILE_BYTES
                    + " bytes); nothing was read"));
      }
      byte[] bytes = UserFiles.read(path, MAX_FILE_BYTES, "the scenario");
      try {
        text =
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
      } catch (CharacterCodingException e) {
        throw new ScenarioError(
            List.of(
                path
                    + ": not UTF-8 text: "
                    + UserFiles.notUtf8(bytes)
                    + "; a scenario is YAML in UTF-8"));
      }
      int nul = text.indexOf('\0');
      if (nul >= 0) {
        int line = 1 + (int) text.substring(0, nul).chars().filter(c -> c == '\n').count();
        int column = nul - text.lastIndexOf('\n', nul - 1);
        throw new ScenarioError(
            List.of(
                path
                    + ":"
                    + line
                    + ":"
                    + column
                    + ": a NUL byte: a binary file, or UTF-16 without a "
                    + "byte-order mark; a scenario is YAML in UTF-8"));
      }
    } catch (UserFiles.Refused e) {
      throw new ScenarioError(List.of(e.getMessage()));
    } catch (IOException e) {
      throw new ScenarioError(
          List.of(path + ": cannot read the scenario: " + IoErrors.describe(e)));
    }
    return parseAny(path, text);
  }

  /** A stream scenario from text (a probe scenario is refused). */
  public static Scenario parse(Path path, String text) throws ScenarioError {
    ScenarioFile f = parseAny(path, text);
    if (f instanceof Scenario s) return s;
    throw new ScenarioError(List.of(path + ": is a probe scenario, not a stream scenario"));
  }

  public static ScenarioFile parseAny(Path path, String text) throws ScenarioError {
    YamlNode root;
    try {
      root = YamlNode.parse(text);
    } catch (YamlNode.SyntaxError e) {
      throw new ScenarioError(
          List.of(path + ":" + e.line + ":" + e.column + ": " + e.getMessage()));
    }
    ErrorCollector errors = new ErrorCollector(path.toString());
    if (root.kind != YamlNode.Kind.MAP) {
      errors.error(root, "(document)", "a scenario must be a map with at least name: and targets:");
      throw new ScenarioError(errors.errors());
    }
    ScenarioFile s = build(path, text, root, errors);
    if (errors.any() || s == null) throw new ScenarioError(errors.errors());
    return s;
  }

  private static ScenarioFile build(Path path, String text, YamlNode root, ErrorCollector errors) {
    errors.onlyKnown(root, "", Keys.names(Key.Section.TOP));
    String name = null;
    if (root.map.containsKey("name")) {
      name = errors.checked(Keys.NAME, root.map.get("name"), "name");
    } else {
      errors.errorAtKey(
          root, "name", "name", "required (the scenario's name, e.g. name: quickstart)");
    }
    String description =
        root.map.containsKey("description")
            ? errors.scalar(root.map.get("description"), "description")
            : "";
    if (root.map.containsKey(Keys.PROBE.name())
        && errors.checked(Keys.PROBE, root.map.get("probe"), "probe") != null) {
      return new ProbeScenarioReader(errors)
          .read(path, text, root, name, description == null ? "" : description);
    }
    if (root.map.containsKey("probe")) return null;
    for (String k : Keys.PROBE_ONLY) {
      if (root.map.containsKey(k))
        errors.errorAtKey(
            root, k, k, "applies only to a probe scenario (probe: upload or keepalive)");
    }
    SettingsReader settings = new SettingsReader(root, errors);
    SweepReader sweep = new SweepReader(root, settings, errors);
    TargetsReader targetsReader = new TargetsReader(root, path, errors);
    List<Target> targets = targetsReader.targets;
    int runs = Integer.parseInt(errors.value(root, Keys.RUNS));
    Scenario.Guards guards = new GuardsReader(root, settings.base, errors).guards;
    String map = errors.value(root, Keys.FLUSH_TRIGGER_MAP);
    boolean flushTriggerMap = map == null ? sweep.cells.size() > 1 : map.equals("true");
    Scenario.Adaptive adaptive = new AdaptiveReader(root, targets, sweep.cells, errors).adaptive;
    ClusterPlacement cluster =
        new ClusterReader(root, path, targets, adaptive, targetsReader.path, errors).placement;
    Expectations expect =
        new ExpectReader(
                root,
                targets,
                flushTriggerMap,
                root.map.containsKey(Keys.CLUSTER_SECTION.name()),
                errors)
            .expectations;
    if (errors.any()) return null;
    // the text kept with the results shows <redacted> where a request header's value was written
    return new Scenario(
        name,
        description == null ? "" : description,
        path,
        settings.requestHeaders.redact(text),
        new Scenario.Resolved(
            settings.base.settingsByName(),
            headerMap(settings.base),
            sweep.byName(),
            runs,
            settings.requestHeaders.redacted()),
        sweep.cells,
        new ArrayList<>(sweep.byName().keySet()),
        targets,
        runs,
        guards,
        flushTriggerMap,
        adaptive,
        settings.emitterListen,
        targetsReader.path,
        settings.requestHeaders,
        cluster,
        expect);
  }

  /** emitter.headers by name, as results record them. */
  private static Map<String, String> headerMap(Cell base) {
    Map<String, String> m = new LinkedHashMap<>();
    for (ResponseHeader h : base.stream().headers()) m.put(h.name(), h.value());
    return m;
  }
}
