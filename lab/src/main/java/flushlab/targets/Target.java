package flushlab.targets;

import flushlab.core.HopProtocol;
import flushlab.core.HostPort;
import flushlab.netpath.NetworkPath;
import flushlab.proxy.ProxyKind;
import flushlab.proxy.ProxyProcess;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.tls.ClientTls;
import flushlab.tls.ServerTls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Something a scenario measures. Each kind is its own record and says how to start what the lab
 * runs for it, so a new kind is one new record: the compiler then asks for everything a kind must
 * provide. The client always connects where the started target says.
 */
public sealed interface Target
    permits Target.Direct, Target.Relay, Target.Process, Target.External {
  /** The row name in every table. */
  String name();

  /** The kind, as written in scenarios and results. */
  TargetKind kind();

  /**
   * True when the client speaks TLS to it (a process target: when its template names a TLS
   * placeholder).
   */
  boolean speaksTls();

  /** One line for tables and results. */
  String describe();

  /** What the hop behind this target speaks to the emitter. */
  HopProtocol upstreamProtocol();

  /** The network between the client and what the lab starts for this target. */
  NetworkPath path();

  /**
   * Starts what the lab runs for this target (nothing, a relay, a proxy) and says where to connect.
   */
  StartedTarget start(TargetContext ctx) throws TargetStartFailure;

  /** The client straight to the emitter: the calibration every other row is compared with. */
  record Direct(String name, NetworkPath path, boolean speaksTls) implements Target {
    public Direct(String name, NetworkPath path) {
      this(name, path, false);
    }

    @Override
    public TargetKind kind() {
      return TargetKind.DIRECT;
    }

    @Override
    public HopProtocol upstreamProtocol() {
      return HopProtocol.NONE;
    }

    @Override
    public String describe() {
      return "direct (no proxy)" + (speaksTls ? ", TLS" : "") + over(path);
    }

    /** With tls: the emitter's TLS listener (the same routes and audits), opened for it. */
    @Override
    public StartedTarget start(TargetContext ctx) throws TargetStartFailure {
      if (!speaksTls) return StartedTarget.nothingToStop(ctx.emitter());
      try {
        return StartedTarget.nothingToStop(
            ctx.site().emitterTls(), ServerTls.selfSigned().pinnedByClients());
      } catch (UnsupportedOperationException e) {
        throw new TargetStartFailure("target " + name + ": " + e.getMessage());
      }
    }
  }

  /** A built-in relay (a shaper chain) the lab starts in front of its emitter. */
  record Relay(
      String name,
      List<ShaperRegistry.Spec> shapers,
      boolean poolUpstream,
      NetworkPath path,
      boolean speaksTls)
      implements Target {
    public Relay(
        String name, List<ShaperRegistry.Spec> shapers, boolean poolUpstream, NetworkPath path) {
      this(name, shapers, poolUpstream, path, false);
    }

    @Override
    public TargetKind kind() {
      return TargetKind.RELAY;
    }

    /**
     * Each client connection, and each stream of an HTTP/2 client, has its own HTTP/1.1 connection
     * upstream.
     */
    @Override
    public HopProtocol upstreamProtocol() {
      return HopProtocol.HTTP_1_1;
    }

    @Override
    public String describe() {
      StringBuilder sb = new StringBuilder("relay ");
      for (int i = 0; i < shapers.size(); i++)
        sb.append(i == 0 ? "" : " -> ").append(shapers.get(i).text());
      if (shapers.isEmpty()) sb.append("passthrough");
      return sb
          + (poolUpstream ? " (pooled upstream)" : "")
          + (speaksTls ? ", TLS to the client" : "")
          + over(path);
    }

    @Override
    public StartedTarget start(TargetContext ctx) throws TargetStartFailure {
      return StartedRelay.start(this, ctx);
    }
  }

  /** A real proxy binary the lab starts from a config template and stops when done. */
  record Process(String name, ProxyKind proxy, Path config, NetworkPath path) implements Target {
    @Override
    public TargetKind kind() {
      return TargetKind.PROCESS;
    }

    @Override
    public boolean speaksTls() {
      return ProxyProcess.terminatesTls(config);
    }

    /**
     * As the template asks (read when the scenario is run; unreadable: unknown, and starting the
     * proxy says why).
     */
    @Override
    public HopProtocol upstreamProtocol() {
      try {
        return proxy.upstreamProtocol(Files.readString(config));
      } catch (IOException e) {
        return HopProtocol.UNKNOWN;
      }
    }

    @Override
    public String describe() {
      return proxy.binaryName + " started by the lab from " + config + over(path);
    }

    @Override
    public StartedTarget start(TargetContext ctx) throws TargetStartFailure {
      return StartedProcess.start(this, ctx);
    }
  }

  /**
   * A server the lab did not start (a gateway someone else runs), measured only when the scenario
   * marks it external and says why; the reason is recorded with the results.
   */
  record External(String name, HostPort address, String reason, ClientTls tls) implements Target {
    public External(String name, HostPort address, String reason) {
      this(name, address, reason, null);
    }

    @Override
    public TargetKind kind() {
      return TargetKind.EXTERNAL;
    }

    @Override
    public HopProtocol upstreamProtocol() {
      return HopProtocol.UNKNOWN;
    }

    @Override
    public boolean speaksTls() {
      return tls != null;
    }

    @Override
    public String describe() {
      return "external "
          + (tls == null ? "" : "https://")
          + address
          + " ("
          + reason
          + ")"
          + (tls == null ? "" : "; " + tls.describe());
    }

    /** Not the lab's to choose: whatever route this host has to the address. */
    @Override
    public NetworkPath path() {
      return NetworkPath.HOST_ROUTE;
    }

    /** Nothing to start; but nothing listening there stops the run before it measures anything. */
    @Override
    public StartedTarget start(TargetContext ctx) throws TargetStartFailure {
      String refused = Reachability.refusal(address);
      if (refused != null) {
        throw new TargetStartFailure(
            "target "
                + name
                + ": nothing accepts connections at "
                + address
                + " ("
                + refused
                + "); start it, or correct its address, before measuring it");
      }
      if (tls != null && tls.mode() == ClientTls.Mode.INSECURE) {
        ctx.announce()
            .accept(
                ClientTls.INSECURE_WARNING.replace(
                    "(--insecure)", "(target " + name + ", insecure: true)"));
      }
      return StartedTarget.nothingToStop(address, tls);
    }
  }

  /**
   * " over veth, MTU 1500" for targets off loopback; nothing on loopback, as before paths existed.
   */
  private static String over(NetworkPath path) {
    return path.isVeth() ? " over " + path.describe() : "";
  }
}
