package flushlab.proxy;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The real proxies the lab can start: how to run each in the foreground and ask its version. */
public enum ProxyKind {
  NGINX("nginx", "nginx") {
    @Override
    List<String> command(String binary, Path config, Path workdir) {
      return List.of(binary, "-c", config.toString(), "-p", workdir.toString() + "/", "-g", "daemon off; pid " + workdir.resolve("nginx.pid") + ";");
    }

    @Override
    List<String> version(String binary) {
      return List.of(binary, "-v");
    }

    @Override
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return List.of(binary, "-T", "-q", "-c", config.toString(), "-p", workdir.toString() + "/", "-g", "pid " + workdir.resolve("nginx-t.pid") + ";");
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
    List<String> effectiveConfig(String binary, Path config, Path workdir) {
      return List.of(binary, "adapt", "--config", config.toString(), "--adapter", "caddyfile", "--pretty");
    }
  };

  public final String binaryName;
  public final String debianPackage;

  ProxyKind(String binaryName, String debianPackage) {
    this.binaryName = binaryName;
    this.debianPackage = debianPackage;
  }

  abstract List<String> command(String binary, Path config, Path workdir);

  abstract List<String> version(String binary);

  /** A command that prints the configuration as the proxy understood it, or null. */
  abstract List<String> effectiveConfig(String binary, Path config, Path workdir);

  public static ProxyKind of(String name) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
