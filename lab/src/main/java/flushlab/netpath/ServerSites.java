package flushlab.netpath;

import flushlab.core.HostPort;
import io.vertx.core.Vertx;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The sites of one run, one per network path its targets use, opened before the targets start and
 * closed after they stop. Loopback's emitter listens where the scenario says (a server the lab did
 * not start forwards there); a veth path's emitter is in that path's namespace.
 */
public final class ServerSites implements AutoCloseable {
  private final Map<NetworkPath, ServerSite> sites = new LinkedHashMap<>();

  private ServerSites() {}

  /** Opens a site for each path; on any failure the ones already open are closed first. */
  public static ServerSites open(
      Vertx vertx, HostPort emitterListen, Iterable<NetworkPath> paths, Consumer<String> announce)
      throws Exception {
    ServerSites all = new ServerSites();
    try {
      for (NetworkPath p : paths) {
        NetworkPath key = siteKey(p);
        if (all.sites.containsKey(key)) continue;
        if (key.isVeth()) {
          VethSite site = VethSite.open(key.mtu());
          all.sites.put(key, site);
          announce.accept(
              "network path "
                  + key.describe()
                  + ": "
                  + site.link()
                  + "; emitter (pid in "
                  + site.link().namespace()
                  + ") at "
                  + site.emitter());
        } else {
          all.sites.put(key, LoopbackSite.open(vertx, emitterListen));
        }
      }
    } catch (Exception | Error e) {
      all.close();
      throw e;
    }
    return all;
  }

  /** A server the lab did not start forwards to the loopback emitter. */
  private static NetworkPath siteKey(NetworkPath p) {
    return p.isVeth() ? p : NetworkPath.LOOPBACK;
  }

  public ServerSite site(NetworkPath path) {
    ServerSite s = sites.get(siteKey(path));
    if (s == null) throw new IllegalStateException("no site was opened for " + path.describe());
    return s;
  }

  @Override
  public void close() {
    for (ServerSite s : sites.values()) s.close();
    sites.clear();
  }
}
