package flushlab.proxy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Apache Traffic Server reads a folder of files (records.config, remap.config, storage.config,
 * ip_allow.yaml, plugin.config, ...), where the other proxies read one. Its template is therefore
 * one file cut into sections, each opened by a line {@code # file: NAME}; the lab writes each
 * section into the private runroot's {@code etc/} and a {@code runroot.yaml} that points
 * traffic_server there (its logs, runtime files and cache too), with its programs and plugins where
 * the package installed them. Text before the first section is the template's own comment.
 */
final class TrafficServerLayout {
  private static final Pattern SECTION = Pattern.compile("(?m)^#\\s*file:\\s*(\\S+)\\s*$");
  private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  private TrafficServerLayout() {}

  /** Where the runroot file of a traffic_server started in {@code workdir} lives. */
  static Path runroot(Path workdir) {
    return workdir.resolve("runroot.yaml");
  }

  /**
   * The sections of a filled template, by file name, in order; refused (naming the file) without
   * records.config or remap.config, or with a name that is not a plain file name.
   */
  static Map<String, String> sections(String text, Path template) {
    Map<String, String> files = new LinkedHashMap<>();
    Matcher m = SECTION.matcher(text);
    String name = null;
    int start = 0;
    while (m.find()) {
      if (name != null) put(files, name, text.substring(start, m.start()), template);
      name = m.group(1);
      start = m.end();
    }
    if (name != null) put(files, name, text.substring(start), template);
    for (String needed : new String[] {"records.config", "remap.config"}) {
      if (!files.containsKey(needed)) {
        throw new IllegalArgumentException(
            template
                + " has no '# file: "
                + needed
                + "' section (a Traffic Server template is "
                + "one file cut into sections, each opened by '# file: NAME': records.config and remap.config at least)");
      }
    }
    return files;
  }

  private static void put(Map<String, String> files, String name, String body, Path template) {
    if (!SAFE_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          template
              + ": '# file: "
              + name
              + "' is not a plain file name (letters, digits, '.', '_', '-')");
    }
    if (files.put(name, body.strip() + "\n") != null) {
      throw new IllegalArgumentException(template + ": '# file: " + name + "' appears twice");
    }
  }

  /** What traffic_server printed without its "NOTE: ..." lines (which runroot it used). */
  static String withoutNotes(String printed) {
    return printed
        .lines()
        .filter(l -> !l.startsWith("NOTE:"))
        .collect(Collectors.joining("\n"))
        .trim();
  }

  /**
   * Writes the sections and the runroot for the filled template {@code config}, in {@code workdir}.
   */
  static void write(String binary, Path config, Path workdir) throws IOException {
    Map<String, String> files = sections(Files.readString(config, StandardCharsets.UTF_8), config);
    Path etc = Files.createDirectories(workdir.resolve("etc"));
    for (String dir : new String[] {"log", "run", "cache"})
      Files.createDirectories(workdir.resolve(dir));
    for (var e : files.entrySet())
      Files.writeString(etc.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
    // Files traffic_server reads but a template need not name: empty means none.
    for (String optional : new String[] {"plugin.config", "storage.config"}) {
      if (!files.containsKey(optional))
        Files.writeString(etc.resolve(optional), "", StandardCharsets.UTF_8);
    }
    // The package's layout: the binary in PREFIX/bin, its libraries and plugins under
    // PREFIX/lib/trafficserver.
    Path bin = Path.of(binary).toAbsolutePath().getParent();
    Path prefix = bin.getParent() == null ? bin : bin.getParent();
    Path lib = prefix.resolve("lib").resolve("trafficserver");
    String yaml =
        "prefix: "
            + workdir
            + "\n"
            + "exec_prefix: "
            + prefix
            + "\n"
            + "bindir: "
            + bin
            + "\n"
            + "sbindir: "
            + prefix.resolve("sbin")
            + "\n"
            + "sysconfdir: "
            + etc
            + "\n"
            + "datadir: "
            + workdir.resolve("cache")
            + "\n"
            + "includedir: "
            + prefix.resolve("include")
            + "\n"
            + "libdir: "
            + lib
            + "\n"
            + "libexecdir: "
            + lib.resolve("modules")
            + "\n"
            + "localstatedir: "
            + workdir
            + "\n"
            + "runtimedir: "
            + workdir.resolve("run")
            + "\n"
            + "logdir: "
            + workdir.resolve("log")
            + "\n"
            + "cachedir: "
            + workdir.resolve("cache")
            + "\n";
    Files.writeString(runroot(workdir), yaml, StandardCharsets.UTF_8);
  }
}
