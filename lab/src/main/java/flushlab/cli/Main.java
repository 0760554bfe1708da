package flushlab.cli;

import com.beust.jcommander.JCommander;
import com.beust.jcommander.ParameterException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * The {@code flushlab} entry point: parses the subcommand, runs it, and is the only place that
 * exits.
 */
public final class Main {
  private Main() {}

  private static final String NETTY_ALLOCATOR = "io.netty.allocator.type";

  /**
   * Netty's pooled allocator, not 4.2's adaptive default, for every buffer Netty allocates on its
   * own (set before any Netty class reads it; the tests' JVMs get it from the pom): under the
   * adaptive one a release over 512 KiB left a built-in relay about 28 ms late on each stream, its
   * first frame waiting 299 ms behind a 270 ms hold while every later release kept the hold to a
   * millisecond (`flushlab map --shape timer=270ms`, 4 KiB frames every 2 ms: 299.5 ms adaptive,
   * 271.7 ms pooled, 2026-12-07). A model's relay that adds time the target's did not is a model
   * that fits the wrong values: a hold of 258 ms with one-late in front was answered with two
   * holds, 40.9 then 276.9 ms, whose first frame waited as long (a fresh-clone CI run).
   */
  static {
    if (System.getProperty(NETTY_ALLOCATOR) == null) System.setProperty(NETTY_ALLOCATOR, "pooled");
  }

  public static void main(String[] args) {
    System.exit(exitCode(() -> run(args, System.out, System.err), System.err));
  }

  /**
   * The exit code of {@code command}, whatever it throws: an error no command catches (a class
   * missing from a jar rebuilt under a running lab, a stack overflow) is printed and exits 1,
   * rather than ending the main thread alone and leaving the JVM up on its event-loop threads, with
   * its children and nothing to stop them (a map whose jar was rebuilt under it stood for minutes
   * so).
   */
  static int exitCode(IntSupplier command, PrintStream err) {
    try {
      return command.getAsInt();
    } catch (Throwable t) {
      err.println("flushlab: internal error, the lab stops: " + t);
      t.printStackTrace(err);
      return Command.EXIT_FAILED;
    }
  }

  /** Runs one command line and returns its exit code (tests call this directly). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, Command> commands = new LinkedHashMap<>();
    commands.put("emitter", new EmitterCommand());
    commands.put("client", new ClientCommand());
    commands.put("probe", new ProbeCommand());
    commands.put("relay", new RelayCommand());
    commands.put("run", new RunCommand());
    commands.put("map", new MapCommand());
    commands.put("validate", new ValidateCommand());
    commands.put("console", new ConsoleCommand());
    commands.put("report", new ReportCommand());
    commands.put("compare", new CompareCommand());
    commands.put("bench", new BenchCommand());
    commands.put("agent", new AgentCommand());
    JCommander jc =
        JCommander.newBuilder()
            .programName("flushlab")
            .resourceBundle(SettingFlags.bundle())
            .build();
    commands.forEach(jc::addCommand);
    // probe's own subcommands: the TCP-layer probes (probe --gateway ... stays the gateway probe)
    Map<String, Command> probes = new LinkedHashMap<>();
    probes.put("upload", new UploadProbeCommand());
    probes.put("keepalive", new KeepAliveProbeCommand());
    probes.put("idle", new IdleProbeCommand());
    JCommander probe = jc.getCommands().get("probe");
    probes.forEach(probe::addCommand);
    if (args.length == 0 || "--help".equals(args[0]) || "-h".equals(args[0])) {
      StringBuilder sb = new StringBuilder();
      jc.getUsageFormatter().usage(sb);
      out.print(sb);
      return args.length == 0 ? Command.EXIT_USAGE : Command.EXIT_OK;
    }
    if (args.length >= 3
        && args[0].equals("probe")
        && probes.containsKey(args[1])
        && ("--help".equals(args[2]) || "-h".equals(args[2]))) {
      StringBuilder sb = new StringBuilder();
      probe.getUsageFormatter().usage(args[1], sb);
      out.print(sb);
      return Command.EXIT_OK;
    }
    if (args.length >= 2
        && commands.containsKey(args[0])
        && ("--help".equals(args[1]) || "-h".equals(args[1]))) {
      StringBuilder sb = new StringBuilder();
      jc.getUsageFormatter().usage(args[0], sb);
      out.print(sb);
      return Command.EXIT_OK;
    }
    try {
      jc.parse(args);
    } catch (ParameterException e) {
      err.println("flushlab: " + e.getMessage());
      err.println("Run 'flushlab --help' for the commands and their flags.");
      return Command.EXIT_USAGE;
    }
    String name = jc.getParsedCommand();
    if (name == null) {
      err.println("flushlab: no command given; one of " + commands.keySet());
      return Command.EXIT_USAGE;
    }
    String sub = name.equals("probe") ? probe.getParsedCommand() : null;
    if (sub != null) name = "probe " + sub;
    try {
      Command command = sub != null ? probes.get(sub) : commands.get(name);
      command.invokedAs(Invocation.describe(args));
      return command.run(out, err);
    } catch (ParameterException | IllegalArgumentException e) {
      err.println("flushlab " + name + ": " + e.getMessage());
      return Command.EXIT_USAGE;
    } catch (Exception e) {
      err.println("flushlab " + name + ": " + describe(e));
      return Command.EXIT_FAILED;
    }
  }

  /** A one-line reason for an exception, unwrapping the wrappers futures add. */
  static String describe(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) c = c.getCause();
    String m = c.getMessage();
    return m == null ? c.getClass().getSimpleName() : m;
  }
}
