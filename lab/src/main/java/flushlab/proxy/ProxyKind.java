package flushlab.proxy;

import flushlab.core.HopProtocol;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The real proxies the lab can start, as a table: each row how to run it in the foreground, ask its
 * version and print its effective configuration (argument lists after the binary, where {@code
 * {config}} is the filled template and {@code {workdir}} its private folder), and what it speaks
 * upstream. Code only where a proxy needs it: Varnish's listen address, Traffic Server's folder of
 * files.
 */
public enum ProxyKind {
  NGINX(
      "nginx",
      "nginx",
      List.of(
          "-c",
          Arg.CONFIG,
          "-p",
          Arg.WORKDIR + "/",
          "-g",
          "daemon off; pid " + Arg.WORKDIR + "/nginx.pid;"),
      List.of("-v"),
      List.of(
          "-T",
          "-q",
          "-c",
          Arg.CONFIG,
          "-p",
          Arg.WORKDIR + "/",
          "-g",
          "pid " + Arg.WORKDIR + "/nginx-t.pid;"),
      ProxyKind::nginxUpstream),
  // HAProxy has no dump of the effective configuration; the filled file is it
  HAPROXY(
      "haproxy",
      "haproxy",
      List.of("-db", "-f", Arg.CONFIG),
      List.of("-v"),
      null,
      ProxyKind::haproxyUpstream),
  CADDY(
      "caddy",
      "caddy",
      List.of("run", "--config", Arg.CONFIG, "--adapter", "caddyfile"),
      List.of("version"),
      List.of("adapt", "--config", Arg.CONFIG, "--adapter", "caddyfile", "--pretty"),
      ProxyKind::caddyUpstream),
  /**
   * lighttpd with mod_proxy: its stock server.stream-response-body (0) buffers a whole response
   * before sending it; it asks upstream in HTTP/1.1 with Connection: close.
   */
  LIGHTTPD(
      "lighttpd",
      "lighttpd",
      List.of("-D", "-f", Arg.CONFIG),
      List.of("-v"),
      List.of("-p", "-f", Arg.CONFIG),
      config -> HopProtocol.HTTP_1_1),
  /**
   * Apache httpd 2.4 with mod_proxy_http, run in the foreground from one self-contained file (its
   * own ServerRoot, PidFile and modules: Debian's apache2.conf and its environment are not used).
   * It asks upstream in HTTP/1.1, unless force-proxy-request-1.0 is set.
   */
  APACHE2(
      "apache2",
      "apache2",
      List.of("-f", Arg.CONFIG, "-DFOREGROUND"),
      List.of("-v"),
      List.of("-f", Arg.CONFIG, "-t", "-D", "DUMP_RUN_CFG", "-D", "DUMP_MODULES"),
      config ->
          config.contains("force-proxy-request-1.0") ? HopProtocol.HTTP_1_0 : HopProtocol.HTTP_1_1),
  /**
   * Varnish Cache: its listen address is a command-line flag, not VCL, so the template names it in
   * a comment line {@code # listen: HOST:PORT} the lab fills in like any placeholder; the
   * management port is off (-T none), its working folder is the lab's, and it keeps the lab's user
   * (-j none) so it can read the private work folder its file is in. (varnishd -C prints the VCL
   * compiled to C, not what a reader wants: the filled file is recorded.)
   */
  VARNISH(
      "varnishd",
      "varnish",
      List.of(
          "-F",
          "-f",
          Arg.CONFIG,
          "-a",
          Arg.LISTEN,
          "-n",
          Arg.WORKDIR + "/varnish",
          "-s",
          "malloc,64m",
          "-T",
          "none",
          "-j",
          "none"),
      List.of("-V"),
      null,
      config -> HopProtocol.HTTP_1_1),
  /**
   * H2O, an HTTP/2-first server: proxy.reverse.url in front of the emitter; its errors go to its
   * log (stderr). (h2o -t only says whether the file parses: the filled file is recorded.)
   */
  H2O(
      "h2o",
      "h2o",
      List.of("-c", Arg.CONFIG),
      List.of("--version"),
      null,
      config -> HopProtocol.HTTP_1_1),
  /**
   * Apache Traffic Server 9: its configuration is a folder of files, so its template is one file of
   * sections ({@link TrafficServerLayout}) the lab writes into a private runroot; it runs in the
   * foreground as traffic_server alone (no traffic_manager) and keeps the lab's user.
   */
  TRAFFICSERVER(
      "traffic_server",
      "trafficserver",
      List.of("--run-root=" + Arg.RUNROOT),
      List.of("-V"),
      List.of("--run-root=" + Arg.RUNROOT, "-C", "verify_config"),
      config -> HopProtocol.HTTP_1_1) {
    @Override
    void prepare(String binary, Path config, Path workdir) throws IOException {
      TrafficServerLayout.write(binary, config, workdir);
    }

    @Override
    String versionText(String printed) {
      // "NOTE: using cwd as TS_RUNROOT" is not its version
      return TrafficServerLayout.withoutNotes(printed);
    }
  },
  /** Squid in accelerator (reverse proxy) mode, in the foreground without its daemon (-N). */
  SQUID(
      "squid",
      "squid",
      List.of("-N", "-f", Arg.CONFIG),
      List.of("-v"),
      List.of("-k", "parse", "-f", Arg.CONFIG),
      config -> HopProtocol.HTTP_1_1);

  /** The placeholders an argument may hold (a class of their own: the rows above use them). */
  private static final class Arg {
    /** The filled template. */
    static final String CONFIG = "{config}";

    /** The proxy's private work folder. */
    static final String WORKDIR = "{workdir}";

    /** Varnish's listen address, from its template's {@code # listen:} line. */
    static final String LISTEN = "{listen}";

    /** Traffic Server's runroot, in the work folder. */
    static final String RUNROOT = "{runroot}";
  }

  public final String binaryName;
  public final String debianPackage;
  private final List<String> run;
  private final List<String> versionArgs;
  private final List<String> effectiveArgs;
  private final Function<String, HopProtocol> upstream;

  ProxyKind(
      String binaryName,
      String debianPackage,
      List<String> run,
      List<String> versionArgs,
      List<String> effectiveArgs,
      Function<String, HopProtocol> upstream) {
    this.binaryName = binaryName;
    this.debianPackage = debianPackage;
    this.run = run;
    this.versionArgs = versionArgs;
    this.effectiveArgs = effectiveArgs;
    this.upstream = upstream;
  }

  /** What this proxy speaks to the emitter under this configuration (its template's text). */
  public HopProtocol upstreamProtocol(String config) {
    return upstream.apply(config);
  }

  /** The command that runs it in the foreground. */
  List<String> command(String binary, Path config, Path workdir) {
    return filled(binary, run, config, workdir);
  }

  List<String> version(String binary) {
    return filled(binary, versionArgs, null, null);
  }

  /** A command that prints the configuration as the proxy understood it, or null. */
  List<String> effectiveConfig(String binary, Path config, Path workdir) {
    return effectiveArgs == null ? null : filled(binary, effectiveArgs, config, workdir);
  }

  /** Its version as recorded, from what its version command printed. */
  String versionText(String printed) {
    return printed;
  }

  /**
   * Writes what the proxy needs beside its filled template before it starts (nothing, for most).
   */
  void prepare(String binary, Path config, Path workdir) throws IOException {}

  /** The binary, then the arguments with their placeholders filled. */
  private static List<String> filled(String binary, List<String> args, Path config, Path workdir) {
    List<String> out = new ArrayList<>(args.size() + 1);
    out.add(binary);
    for (String a : args) {
      String v = a;
      if (v.contains(Arg.CONFIG)) v = v.replace(Arg.CONFIG, config.toString());
      if (v.contains(Arg.RUNROOT))
        v = v.replace(Arg.RUNROOT, TrafficServerLayout.runroot(workdir).toString());
      if (v.contains(Arg.WORKDIR)) v = v.replace(Arg.WORKDIR, workdir.toString());
      if (v.equals(Arg.LISTEN)) v = listenLine(config);
      out.add(v);
    }
    return List.copyOf(out);
  }

  private static final Pattern LISTEN_LINE = Pattern.compile("(?m)^#\\s*listen:\\s*(\\S+)\\s*$");

  /**
   * A Varnish template's {@code # listen: HOST:PORT} line, filled; the template is refused without
   * one.
   */
  static String listenLine(Path config) {
    try {
      var m = LISTEN_LINE.matcher(Files.readString(config));
      if (m.find()) return m.group(1);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + config + ": " + e.getMessage(), e);
    }
    throw new IllegalStateException(
        config
            + " has no '# listen: {{listen_host}}:{{listen_port}}' line (varnishd takes its "
            + "listen address on the command line)");
  }

  /** Every kind's name, as flags and messages list them. */
  public static String names() {
    return String.join(", ", Arrays.stream(values()).map(ProxyKind::text).toList());
  }

  /** How scenarios and --proxy name it: the enum name in lower case (nginx, trafficserver, ...). */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ProxyKind of(String name) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static final Pattern NGINX_HTTP11 =
      Pattern.compile("(?m)^\\s*proxy_http_version\\s+1\\.1\\s*;");
  private static final Pattern HAPROXY_SERVER_H2 =
      Pattern.compile("(?m)^\\s*server\\s.*\\bproto\\s+h2\\b.*$");
  private static final Pattern CADDY_H2C = Pattern.compile("(?m)^\\s*versions\\s+.*\\bh2c\\b");

  /**
   * nginx: HTTP/1.0 upstream unless {@code proxy_http_version 1.1} (its default, as documented).
   */
  static HopProtocol nginxUpstream(String config) {
    return NGINX_HTTP11.matcher(config).find() ? HopProtocol.HTTP_1_1 : HopProtocol.HTTP_1_0;
  }

  /**
   * HAProxy: HTTP/1.1 unless a server line says {@code proto h2} (h2 when that line has {@code
   * ssl}).
   */
  static HopProtocol haproxyUpstream(String config) {
    var m = HAPROXY_SERVER_H2.matcher(config);
    if (!m.find()) return HopProtocol.HTTP_1_1;
    return m.group().matches(".*\\bssl\\b.*") ? HopProtocol.H2 : HopProtocol.H2C;
  }

  /**
   * Caddy's reverse_proxy: HTTP/1.1 to a plain upstream unless its transport lists {@code versions
   * h2c}.
   */
  static HopProtocol caddyUpstream(String config) {
    return CADDY_H2C.matcher(config).find() ? HopProtocol.H2C : HopProtocol.HTTP_1_1;
  }
}
