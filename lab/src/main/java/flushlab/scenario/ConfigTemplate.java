package flushlab.scenario;

import flushlab.core.IoErrors;
import flushlab.core.UserFiles;
import flushlab.netpath.NetworkPath;
import flushlab.proxy.ProxyProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A proxy config template: relative to a folder and inside it (symbolic links resolved), a regular
 * file of at most {@link ScenarioLoader#MAX_TEMPLATE_BYTES}, with the placeholders the lab fills
 * in. A scenario cannot make the lab read, start a proxy with, and copy into its results a file
 * from elsewhere on the machine.
 */
public final class ConfigTemplate {
  private ConfigTemplate() {}

  /**
   * The template's real path, for a proxy run on {@code path}; a mistake is an
   * IllegalArgumentException saying what is wrong and what is allowed. Checked here, where the
   * scenario or the flags are read, so that a template the proxy could not start from is refused
   * before the lab makes a network path and starts an emitter in it (seconds, for a veth path).
   */
  public static Path resolve(Path dir, String cfg, NetworkPath path) {
    Path config = dir.resolve(cfg).normalize();
    if (!Files.isRegularFile(config))
      throw new IllegalArgumentException(
          "no file " + config + " (paths are relative to " + dir + ")");
    try {
      Path realDir = dir.toRealPath();
      Path real = config.toRealPath();
      if (!real.startsWith(realDir)) {
        throw new IllegalArgumentException(
            "'"
                + cfg
                + "' is outside the scenario's folder "
                + realDir
                + " (allowed: a template in that folder or below it, e.g. proxies/haproxy-stock.cfg)");
      }
      long size = Files.size(real);
      if (size > ScenarioLoader.MAX_TEMPLATE_BYTES) {
        throw new IllegalArgumentException(
            config
                + " is "
                + size
                + " bytes (allowed: at most "
                + ScenarioLoader.MAX_TEMPLATE_BYTES
                + ")");
      }
      String text = UserFiles.readText(real, ScenarioLoader.MAX_TEMPLATE_BYTES, "the template");
      if (!text.contains("{{listen_port}}") || !text.contains("{{upstream_port}}")) {
        throw new IllegalArgumentException(
            config + " must contain {{listen_port}} and {{upstream_port}} for the lab to fill in");
      }
      if (path.isVeth() && !text.contains("{{listen_host}}")) {
        throw new IllegalArgumentException(ProxyProcess.noListenHost(config));
      }
      return real;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + config + ": " + IoErrors.describe(e));
    }
  }
}
