package flushlab.proxy;

import flushlab.core.IoErrors;
import flushlab.process.Executables;
import flushlab.process.ProcessGuard;
import flushlab.process.WorkFolders;
import flushlab.tls.LabCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A real proxy the lab started: a config template with the listen and upstream addresses filled in,
 * run in the foreground from a private work folder, waited for until it accepts connections, and
 * stopped by its own process id (never by name). Its version and effective config are kept, so a
 * published table cannot drift from the config that produced it.
 */
public final class ProxyProcess implements AutoCloseable {
  private final boolean tls;
  private static final long START_TIMEOUT_NANOS = 15_000_000_000L;

  private final ProxyKind kind;
  private final Process process;
  private final String host;
  private final int port;
  private final String version;
  private final String configText;
  private final String effectiveConfig;
  private final Path log;
  private final Path workdir;

  /**
   * Every proxy this JVM started and has not stopped: the path's processes a reader on this host
   * can see.
   */
  private static final Set<ProxyProcess> LIVE = ConcurrentHashMap.newKeySet();

  private ProxyProcess(
      ProxyKind kind,
      Process process,
      String host,
      int port,
      String version,
      String configText,
      String effectiveConfig,
      Path log,
      Path workdir,
      boolean tls) {
    this.tls = tls;
    this.kind = kind;
    this.process = process;
    this.host = host;
    this.port = port;
    this.version = version;
    this.configText = configText;
    this.effectiveConfig = effectiveConfig;
    this.log = log;
    this.workdir = workdir;
  }

  /**
   * A template that names any of these terminates TLS: the lab writes its self-signed certificate
   * into the proxy's work folder (cert.pem, key.pem, and both in one file for HAProxy) and its
   * clients pin that certificate.
   */
  public static final List<String> TLS_PLACEHOLDERS =
      List.of("{{tls_cert}}", "{{tls_key}}", "{{tls_pem}}");

  /** True when a template's text terminates TLS (names a TLS placeholder). */
  public static boolean terminatesTls(String templateText) {
    return TLS_PLACEHOLDERS.stream().anyMatch(templateText::contains);
  }

  /**
   * The same for a template file; false when it cannot be read (starting the proxy reports that).
   */
  public static boolean terminatesTls(Path template) {
    try {
      return terminatesTls(Files.readString(template, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return false;
    }
  }

  /** A proxy that could not be started; the message says why and what to do. */
  public static final class StartFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public StartFailure(String message) {
      super(message);
    }
  }

  /** Where a binary lives on PATH (or the path itself), or null. */
  public static String locate(String binary) {
    return Executables.locate(binary);
  }

  public static String missingMessage(ProxyKind kind) {
    return kind.binaryName
        + " is not installed (no '"
        + kind.binaryName
        + "' on PATH): install the Debian package with "
        + "'apt-get install "
        + kind.debianPackage
        + "'";
  }

  /** Why a template without {@code {{listen_host}}} cannot run on a path other than loopback. */
  public static String noListenHost(Path template) {
    return "the config template "
        + template
        + " has no {{listen_host}}: on a path other than loopback the proxy must listen where the"
        + " lab says (write e.g. 'bind {{listen_host}}:{{listen_port}}')";
  }

  public static ProxyProcess start(
      ProxyKind kind, Path template, String upstreamHost, int upstreamPort) throws StartFailure {
    return start(kind, template, "127.0.0.1", upstreamHost, upstreamPort, c -> c);
  }

  /**
   * Starts the proxy listening on {@code listenHost}, with its command placed by {@code placement}
   * (for a veth path: inside the path's namespace, where every port is free). The port is one the
   * lab found free; taken by another process before the proxy bound it, the proxy is started again
   * on another, up to {@link #PORT_ATTEMPTS} times.
   */
  public static ProxyProcess start(
      ProxyKind kind,
      Path template,
      String listenHost,
      String upstreamHost,
      int upstreamPort,
      UnaryOperator<List<String>> placement)
      throws StartFailure {
    Launch launch = new Launch(kind, template, listenHost, upstreamHost, upstreamPort, placement);
    for (int attempt = 1; ; attempt++) {
      try {
        return startOnce(launch);
      } catch (StartFailure e) {
        if (attempt >= PORT_ATTEMPTS || !ProxyPort.taken(e.getMessage())) throw e;
      }
    }
  }

  /** How many ports a proxy is started on before a port taken each time is reported. */
  static final int PORT_ATTEMPTS = 3;

  /**
   * What a start is asked: the proxy, its template, where it listens and forwards, where it runs.
   */
  private record Launch(
      ProxyKind kind,
      Path template,
      String listenHost,
      String upstreamHost,
      int upstreamPort,
      UnaryOperator<List<String>> placement) {}

  private static ProxyProcess startOnce(Launch launch) throws StartFailure {
    ProxyKind kind = launch.kind();
    Path template = launch.template();
    String listenHost = launch.listenHost();
    String upstreamHost = launch.upstreamHost();
    int upstreamPort = launch.upstreamPort();
    UnaryOperator<List<String>> placement = launch.placement();
    String binary = locate(kind.binaryName);
    if (binary == null) throw new StartFailure(missingMessage(kind));
    String text;
    try {
      text = Files.readString(template, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new StartFailure("cannot read the config template " + template + ": " + e.getMessage());
    }
    if (!listenHost.equals("127.0.0.1") && !text.contains("{{listen_host}}")) {
      throw new StartFailure(noListenHost(template));
    }
    WorkFolders.sweepStale(); // folders (and any process) left by a lab that was killed
    Path workdir;
    int port;
    try {
      workdir = WorkFolders.create(kind.binaryName);
      port = ProxyPort.freeLoopback();
    } catch (IOException e) {
      throw new StartFailure("cannot prepare a work folder: " + IoErrors.describe(e));
    }
    boolean tls = terminatesTls(text);
    LabCertificate.ProxyFiles certFiles = null;
    if (tls) {
      try {
        certFiles = LabCertificate.labMade().writeInto(workdir);
      } catch (IOException e) {
        WorkFolders.delete(workdir);
        throw new StartFailure(
            "cannot write the lab's TLS certificate into " + workdir + ": " + IoErrors.describe(e));
      }
    }
    String filled =
        text.replace("{{listen_host}}", listenHost)
            .replace("{{listen_port}}", Integer.toString(port))
            .replace("{{upstream_host}}", upstreamHost)
            .replace("{{upstream_port}}", Integer.toString(upstreamPort))
            .replace("{{workdir}}", workdir.toString());
    if (tls) {
      filled =
          filled
              .replace("{{tls_cert}}", certFiles.cert().toString())
              .replace("{{tls_key}}", certFiles.key().toString())
              .replace("{{tls_pem}}", certFiles.certAndKey().toString());
    }
    Path config = workdir.resolve(template.getFileName().toString());
    Path log = workdir.resolve("proxy.log");
    try {
      Files.writeString(config, filled, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new StartFailure("cannot write the config: " + e.getMessage());
    }
    try {
      kind.prepare(binary, config, workdir);
    } catch (IOException | IllegalArgumentException e) {
      WorkFolders.delete(workdir);
      throw new StartFailure(
          "cannot prepare "
              + kind.binaryName
              + "'s files from "
              + template
              + ": "
              + e.getMessage());
    }
    String version = kind.versionText(capture(kind.version(binary), workdir));
    List<String> eff = kind.effectiveConfig(binary, config, workdir);
    String effective = eff == null ? null : capture(eff, workdir);
    ProcessBuilder pb =
        new ProcessBuilder(
                ProcessGuard.wrap(placement.apply(kind.command(binary, config, workdir))))
            .directory(workdir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.put("HOME", workdir.toString()); // caddy keeps its state under HOME / XDG folders
    env.put("XDG_DATA_HOME", workdir.toString());
    env.put("XDG_CONFIG_HOME", workdir.toString());
    Process p;
    try {
      p = ProcessGuard.start(pb);
      if (ProcessGuard.guarded())
        WorkFolders.recordProcessGroup(workdir, p.pid()); // setsid: its pid is the group's id
    } catch (IOException e) {
      WorkFolders.delete(workdir);
      throw new StartFailure("cannot start " + binary + ": " + IoErrors.describe(e));
    }
    ProxyProcess proxy =
        new ProxyProcess(kind, p, listenHost, port, version, filled, effective, log, workdir, tls);
    LIVE.add(proxy);
    long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
    while (true) {
      if (!p.isAlive()) {
        String tail = proxy.logTail(20);
        proxy.close();
        throw new StartFailure(
            kind.binaryName
                + " exited with status "
                + p.exitValue()
                + " before it listened on "
                + listenHost
                + ":"
                + port
                + "; its log ends:\n"
                + tail);
      }
      // the proxy's own listener, not another process's that took the port first (it then fails
      // to bind, and is started again on another port)
      if (ProxyPort.accepts(listenHost, port)
          && ProxyPort.ownedBy(p.toHandle(), port) != Boolean.FALSE) return proxy;
      if (System.nanoTime() > deadline) {
        String tail = proxy.logTail(20);
        proxy.close();
        throw new StartFailure(
            kind.binaryName
                + " did not listen on "
                + listenHost
                + ":"
                + port
                + " within 15 s; its log ends:\n"
                + tail);
      }
      try {
        p.waitFor(50, TimeUnit.MILLISECONDS); // poll the port; returns early if it dies
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        proxy.close();
        throw new StartFailure("interrupted while waiting for " + kind.binaryName);
      }
    }
  }

  private static String capture(List<String> command, Path workdir) {
    try {
      Process p =
          new ProcessBuilder(command).directory(workdir.toFile()).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      p.waitFor(10, TimeUnit.SECONDS);
      return out;
    } catch (IOException | InterruptedException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /** True when its template terminates TLS with the lab's certificate. */
  public boolean tls() {
    return tls;
  }

  public int port() {
    return port;
  }

  /** The address it listens on (127.0.0.1, or a veth path's server address). */
  public String host() {
    return host;
  }

  /** The proxy's own pid (under the guard, the guard's child). */
  /**
   * The pids of the proxies this JVM started and has not stopped: a cluster agent whose clients
   * read through a proxy it (or an agent beside it in this JVM) hosts judges their reads with that
   * proxy's waits for a core, as a one-host run does with its target's.
   */
  public static List<Long> livePids() {
    List<Long> pids = new ArrayList<>();
    for (ProxyProcess p : LIVE) pids.add(p.pid());
    return pids;
  }

  public long pid() {
    if (!ProcessGuard.guarded()) return process.pid();
    return process.children().findFirst().map(ProcessHandle::pid).orElse(process.pid());
  }

  /** The private folder the proxy runs in (deleted when it stops). */
  public Path workdir() {
    return workdir;
  }

  public String version() {
    return version;
  }

  public String configText() {
    return configText;
  }

  /**
   * The configuration as the proxy parsed it, or null when the proxy has no way to print it
   * (HAProxy).
   */
  public String effectiveConfig() {
    return effectiveConfig;
  }

  public ProxyKind kind() {
    return kind;
  }

  public String logTail(int lines) {
    return ProcessGuard.logTail(log, lines);
  }

  /**
   * Stops the proxy and everything it started, and deletes its work folder. Under the guard, TERM
   * to the guard kills the whole process group at once; unguarded, TERM to the proxy, KILL after 5
   * s, then its children.
   */
  @Override
  public void close() {
    LIVE.remove(this);
    ProcessGuard.stop(process);
    WorkFolders.delete(workdir);
  }
}
