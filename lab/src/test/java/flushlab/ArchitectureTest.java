package flushlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering docs/ARCHITECTURE.md draws, checked on the sources: no package imports another that
 * imports it back (directly or around a loop), the lower layers never reach up, a dependency is
 * declared in the import block, not hidden as a qualified name in a method body, and no main file
 * grows past 400 lines.
 */
class ArchitectureTest {
  private static final Path SOURCES = Path.of("lab/src/main/java");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
  private static final Pattern REFERENCE =
      Pattern.compile("\\bflushlab((?:\\.[a-z]\\w*)*)\\.[A-Z]");

  /** package -> the flushlab packages its code refers to (imports and qualified names alike). */
  private static final Map<String, Set<String>> DEPENDS = new TreeMap<>();

  /** file -> the qualified flushlab names its code (not its import block) spells out. */
  private static final Map<Path, List<String>> QUALIFIED = new TreeMap<>();

  @BeforeAll
  static void read() throws IOException {
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String code = codeOnly(Files.readString(f));
        Matcher pm = PACKAGE.matcher(code);
        assertThat(pm.find()).as(f + " has a package line").isTrue();
        String pkg = pm.group(1);
        Set<String> deps = DEPENDS.computeIfAbsent(pkg, k -> new TreeSet<>());
        StringBuilder body = new StringBuilder();
        for (String line : code.split("\n")) {
          if (line.startsWith("import ") || line.startsWith("package ")) {
            Matcher m = REFERENCE.matcher(line);
            while (m.find()) addDependency(deps, pkg, "flushlab" + m.group(1));
          } else {
            body.append(line).append('\n');
          }
        }
        Matcher m = REFERENCE.matcher(body);
        while (m.find()) {
          addDependency(deps, pkg, "flushlab" + m.group(1));
          QUALIFIED.computeIfAbsent(f, k -> new ArrayList<>()).add(m.group());
        }
      }
    }
  }

  private static void addDependency(Set<String> deps, String pkg, String other) {
    if (!other.equals(pkg)) deps.add(other);
  }

  /**
   * The source without comments and string literals (a class name in a message is not a
   * dependency).
   */
  private static String codeOnly(String src) {
    String s = src.replaceAll("(?s)/\\*.*?\\*/", " ");
    s = s.replaceAll("(?s)\"\"\".*?\"\"\"", "\"\"");
    s = s.replaceAll("//[^\n]*", " ");
    return s.replaceAll("\"(?:\\\\.|[^\"\\\\\n])*\"", "\"\"");
  }

  @Test
  void noPackageDependsOnItselfAroundALoop() {
    List<List<String>> cycles = new ArrayList<>();
    Map<String, Integer> state = new HashMap<>(); // 1: on the path, 2: done
    for (String p : DEPENDS.keySet()) findCycle(p, new ArrayList<>(), state, cycles);
    assertThat(cycles).as("package dependencies: " + DEPENDS).isEmpty();
  }

  private static void findCycle(
      String p, List<String> path, Map<String, Integer> state, List<List<String>> cycles) {
    Integer st = state.get(p);
    if (st != null && st == 2) return;
    if (st != null && st == 1) {
      cycles.add(new ArrayList<>(path.subList(path.indexOf(p), path.size())));
      return;
    }
    state.put(p, 1);
    path.add(p);
    for (String q : DEPENDS.getOrDefault(p, Set.of())) findCycle(q, path, state, cycles);
    path.remove(path.size() - 1);
    state.put(p, 2);
  }

  @Test
  void theLowerLayersNeverReachUp() {
    // the foundation knows nothing of the lab; the instruments know nothing of how they are
    // orchestrated or shown
    for (String low :
        List.of(
            "flushlab.core",
            "flushlab.http",
            "flushlab.stream",
            "flushlab.coding",
            "flushlab.tls",
            "flushlab.process")) {
      assertThat(DEPENDS.getOrDefault(low, Set.of()))
          .as(low + " depends on")
          .allMatch(d -> Set.of("flushlab.core", "flushlab.http", "flushlab.coding").contains(d));
    }
    Set<String> orchestration =
        Set.of(
            "flushlab.run",
            "flushlab.scenario",
            "flushlab.cli",
            "flushlab.control",
            "flushlab.report",
            "flushlab.report.page",
            "flushlab.targets");
    for (String instrument :
        List.of(
            "flushlab.emitter",
            "flushlab.client",
            "flushlab.relay",
            "flushlab.relay.shaper",
            "flushlab.proxy",
            "flushlab.netpath",
            "flushlab.map",
            "flushlab.tcpprobe")) {
      assertThat(DEPENDS.getOrDefault(instrument, Set.of()))
          .as(instrument + " depends on")
          .noneMatch(orchestration::contains);
    }
    assertThat(DEPENDS.getOrDefault("flushlab.client", Set.of()))
        .as("the metered client depends on")
        .doesNotContain("flushlab.emitter", "flushlab.relay");
    assertThat(DEPENDS.getOrDefault("flushlab.relay.shaper", Set.of()))
        .as("the shaper contract depends on")
        .doesNotContain("flushlab.relay");
    assertThat(DEPENDS.getOrDefault("flushlab.scenario", Set.of()))
        .as("reading scenarios depends on")
        .doesNotContain("flushlab.run");
    assertThat(DEPENDS.getOrDefault("flushlab.run", Set.of()))
        .as("running depends on")
        .doesNotContain("flushlab.report");
    DEPENDS.forEach(
        (p, deps) -> assertThat(deps).as(p + " depends on").doesNotContain("flushlab.cli"));
  }

  /**
   * One run pipeline for one host and many: the runner measures through {@code run.RemoteLab},
   * which the cluster provides, and the reports render the one outcome; only the command line,
   * which opens a lab's agents, reaches into {@code cluster}.
   */
  @Test
  void onlyTheCommandLineKnowsTheCluster() {
    DEPENDS.forEach(
        (p, deps) -> {
          if (!p.equals("flushlab.cli") && !p.equals("flushlab.cluster"))
            assertThat(deps).as(p + " depends on").doesNotContain("flushlab.cluster");
        });
  }

  /**
   * Each package says its job where its code is: a package-info.java (docs/ARCHITECTURE.md keeps
   * the one-line map).
   */
  @Test
  void everyPackageSaysItsJob() {
    for (String pkg : DEPENDS.keySet()) {
      Path info = SOURCES.resolve(pkg.replace('.', '/')).resolve("package-info.java");
      assertThat(info).as(pkg + " says its job").exists();
    }
  }

  /** A main file does one job: past this many lines it does several (issue 36). */
  private static final int MAX_MAIN_FILE_LINES = 400;

  @Test
  void noMainFileIsOverItsLineCap() throws IOException {
    Map<Path, Long> over = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        long lines;
        try (Stream<String> l = Files.lines(f)) {
          lines = l.count();
        }
        if (lines > MAX_MAIN_FILE_LINES) over.put(f, lines);
      }
    }
    assertThat(over).as("main files over " + MAX_MAIN_FILE_LINES + " lines").isEmpty();
  }

  @Test
  void dependenciesAreImportedNotSpelledOutInCode() throws IOException {
    assertThat(QUALIFIED).as("qualified flushlab names in method bodies (import them)").isEmpty();
    // the tests too: a test reads like the code it checks
    Map<Path, List<String>> inTests = new TreeMap<>();
    try (Stream<Path> files = Files.walk(Path.of("lab/src/test/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        for (String line : codeOnly(Files.readString(f)).split("\n")) {
          if (line.startsWith("import ") || line.startsWith("package ")) continue;
          Matcher m = REFERENCE.matcher(line);
          while (m.find()) inTests.computeIfAbsent(f, k -> new ArrayList<>()).add(m.group());
        }
      }
    }
    assertThat(inTests).as("qualified flushlab names in tests (import them)").isEmpty();
  }

  private static final Pattern LIBRARY_NAME =
      Pattern.compile(
          "(?<![\\w.])(?:java|javax|io\\.vertx|io\\.netty|com\\.fasterxml|org\\.HdrHistogram"
              + "|com\\.beust|org\\.junit|org\\.assertj|com\\.hazelcast)(?:\\.[a-z_]\\w*)+\\.([A-Z]\\w*)");

  private static final Pattern IMPORTED = Pattern.compile("(?m)^import ([\\w.]+)\\.(\\w+);");

  /**
   * JDK and library classes are imported too, in main code and tests: a name is spelled out only
   * where the file imports another class of the same simple name (Netty's and Vert.x's ClientAuth).
   */
  @Test
  void libraryNamesAreImportedUnlessTwoShareASimpleName() throws IOException {
    Map<Path, List<String>> spelled = new TreeMap<>();
    for (Path root : List.of(SOURCES, Path.of("lab/src/test/java"))) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          String code = codeOnly(Files.readString(f));
          Map<String, String> imported = new TreeMap<>();
          Matcher im = IMPORTED.matcher(code);
          while (im.find()) imported.put(im.group(2), im.group(1) + "." + im.group(2));
          for (String line : code.split("\n")) {
            if (line.startsWith("import ") || line.startsWith("package ")) continue;
            Matcher m = LIBRARY_NAME.matcher(line);
            while (m.find()) {
              String other = imported.get(m.group(1));
              if (other == null || other.equals(m.group()))
                spelled.computeIfAbsent(f, k -> new ArrayList<>()).add(m.group());
            }
          }
        }
      }
    }
    assertThat(spelled).as("JDK and library names spelled out in code (import them)").isEmpty();
  }
}
