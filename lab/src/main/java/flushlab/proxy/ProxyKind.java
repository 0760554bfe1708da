package flushlab.proxy;

import flushlab.core.HopProtocol;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** The real proxies the lab can start: how to run each in the foreground and ask its version. */
public enum ProxyKind {
  NGINX("nginx", "nginx") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(
          binary,
          "-c",
          config.toString(),
          "-p",
          workdir.toString() + "/",
          "-g",
          "daemon off; pid " + workdir.resolve("nginx.pid") + ";");
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "-v");
    }

    @Override
    public HopProtocol upstreamProtocol(String config) {
      return nginxUpstream(config);
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return List.of(
          binary,
          "-T",
          "-q",
          "-c",
          config.toString(),
          "-p",
          workdir.toString() + "/",
          "-g",
          "pid " + workdir.resolve("nginx-t.pid") + ";");
    }
  },
  HAPROXY("haproxy", "haproxy") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(binary, "-db", "-f", config.toString());
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "-v");
    }

    @Override
    public HopProtocol upstreamProtocol(String config) {
      return haproxyUpstream(config);
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return null; // HAProxy has no dump of the effective configuration; the filled file is it
    }
  },
  CADDY("caddy", "caddy") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(binary, "run", "--config", config.toString(), "--adapter", "caddyfile");
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "version");
    }

    @Override
    public HopProtocol upstreamProtocol(String config) {
      return caddyUpstream(config);
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return List.of(
          binary, "adapt", "--config", config.toString(), "--adapter", "caddyfile", "--pretty");
    }
  },
  /**
   * lighttpd with mod_proxy: its stock server.stream-response-body (0) buffers a whole response
   * before sending it; it asks upstream in HTTP/1.1 with Connection: close.
   */
  LIGHTTPD("lighttpd", "lighttpd") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(binary, "-D", "-f", config.toString());
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "-v");
    }

    @Override
    public HopProtocol upstreamProtocol(String config) {
      return HopProtocol.HTTP_1_1;
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return List.of(binary, "-p", "-f", config.toString());
    }
  },
  /**
   * Apache httpd 2.4 with mod_proxy_http, run in the foreground from one self-contained file (its
   * own ServerRoot, PidFile and modules: Debian's apache2.conf and its environment are not used).
   * It asks upstream in HTTP/1.1, unless force-proxy-request-1.0 is set.
   */
  APACHE2("apache2", "apache2") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(binary, "-f", config.toString(), "-DFOREGROUND");
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "-v");
    }

    @Override
    public HopProtocol upstreamProtocol(String config) {
      return config.contains("force-proxy-request-1.0")
          ? HopProtocol.HTTP_1_0
          : HopProtocol.HTTP_1_1;
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return List.of(
          binary, "-f", config.toString(), "-t", "-D", "DUMP_RUN_CFG", "-D", "DUMP_MODULES");
    }
  },
  /**
   * Varnish Cache: its listen address is a command-line flag, not VCL, so the template names it in
   * a comment line {@code # listen: HOST:PORT} the lab fills in like any placeholder; the
   * management port is off (-T none), its working folder is the lab's, and it keeps the lab's user
   * (-j none) so it can read the private work folder its file is in.
   */
  VARNISH("varnishd", "varnish") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(
          binary,
          "-F",
          "-f",
          config.toString(),
          "-a",
          listenLine(config),
          "-n",
          workdir.resolve("varnish").toString(),
          "-s",
          "malloc,64m",
          "-T",
          "none",
          "-j",
          "none");
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "-V");
    }

    @Override
    public HopProtocol upstreamProtocol(String config) {
      return HopProtocol.HTTP_1_1;
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return null; // varnishd -C prints the VCL compiled to C, not what a reader wants: the filled
      // file is recorded
    }
  },
  /**
   * H2O, an HTTP/2-first server: proxy.reverse.url in front of the emitter; its errors go to its
   * log (stderr).
   */
  H2O("h2o", "h2o") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(binary, "-c", config.toString());
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "--version");
    }

    @Override
    public HopProtocol upstreamProtocol(String config) {
      return HopProtocol.HTTP_1_1;
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return null; // h2o -t only says whether the file parses: the filled file is recorded
    }
  },
  /**
   * Apache Traffic Server 9: its configuration is a folder of files, so its template is one file of
   * sections ({@link TrafficServerLayout}) the lab writes into a private runroot; it runs in the
   * foreground as traffic_server alone (no traffic_manager) and keeps the lab's user.
   */
  TRAFFICSERVER("traffic_server", "trafficserver") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(binary, "--run-root=" + TrafficServerLayout.runroot(workdir));
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "-V");
    }

    @Override
    public HopProtocol upstreamProtocol(String config) {
      return HopProtocol.HTTP_1_1;
    }

    @Override
    void prepare(String binary, Path config, Path workdir) throws java.io.IOException {
      TrafficServerLayout.write(binary, config, workdir);
    }

    @Override
    String versionText(String printed) {
      return TrafficServerLayout.withoutNotes(
          printed); // "NOTE: using cwd as TS_RUNROOT" is not its version
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return List.of(
          binary, "--run-root=" + TrafficServerLayout.runroot(workdir), "-C", "verify_config");
    }
  },
  /** Squid in accelerator (reverse proxy) mode, in the foreground without its daemon (-N). */
  SQUID("squid", "squid") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(binary, "-N", "-f", config.toString());
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "-v");
    }

    @Override
    public HopProtocol upstreamProtocol(String config) {
      return HopProtocol.HTTP_1_1;
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return List.of(binary, "-k", "parse", "-f", config.toString());
    }
  };

  /** What this proxy speaks to the emitter under this configuration (its template's text). */
  public abstract HopProtocol upstreamProtocol(String config);

  public final String binaryName;
  public final String debianPackage;

  ProxyKind(String binaryName, String debianPackage) {
    this.binaryName = binaryName;
    this.debianPackage = debianPackage;
  }

  abstract List<String> command(String binary, Path config, Path workdir);

  abstract List<String> version(String binary);

  /** Its version as recorded, from what its version command printed. */
  String versionText(String printed) {
    return printed;
  }

  /**
   * Writes what the proxy needs beside its filled template before it starts (nothing, for most).
   */
  void prepare(String binary, Path config, Path workdir) throws java.io.IOException {}

  /** A command that prints the configuration as the proxy understood it, or null. */
  abstract List<String> effectiveConfig(String binary, Path config, Path workdir);

  private static final Pattern LISTEN_LINE = Pattern.compile("(?m)^#\\s*listen:\\s*(\\S+)\\s*$");

  /**
   * A Varnish template's {@code # listen: HOST:PORT} line, filled; the template is refused without
   * one.
   */
  static String listenLine(Path config) {
    try {
      var m = LISTEN_LINE.matcher(java.nio.file.Files.readString(config));
      if (m.find()) return m.group(1);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot read " + config + ": " + e.getMessage(), e);
    }
    throw new IllegalStateException(
        config
            + " has no '# listen: {{listen_host}}:{{listen_port}}' line (varnishd takes its "
            + "listen address on the command line)");
  }

  /** Every kind's name, as flags and messages list them. */
  public static String names() {
    return String.join(", ", java.util.Arrays.stream(values()).map(ProxyKind::text).toList());
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
