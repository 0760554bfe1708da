package flushlab.run;

import flushlab.core.HostPort;
import flushlab.netpath.NetworkPath;
import flushlab.netpath.VethLink;
import flushlab.scenario.ProbeScenario;
import flushlab.tcpprobe.KeepAliveProbe;
import flushlab.tcpprobe.ProbeSite;
import flushlab.tcpprobe.UploadAttempt;
import flushlab.tcpprobe.UploadProbe;
import flushlab.tcpprobe.UploadServer;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs a probe scenario: each server in order, started on its path (one namespace per veth path,
 * shared by its servers), probed, stopped. A server that cannot start is reported with why and the
 * others still run; an interrupt keeps what finished.
 */
public final class ProbeScenarioRunner {
  private final ProbeScenario scenario;
  private final Vertx vertx;
  private final AtomicBoolean interrupted = new AtomicBoolean();

  public ProbeScenarioRunner(ProbeScenario scenario, Vertx vertx) {
    this.scenario = scenario;
    this.vertx = vertx;
  }

  /** Stops after the attempt or request in progress; finished servers are kept. */
  public void interrupt() {
    interrupted.set(true);
  }

  /** The probe was interrupted: what finished is kept, the rest is not a measurement. */
  static final class Interrupted extends Exception {
    private static final long serialVersionUID = 1L;
  }

  public ProbeOutcome run(Consumer<String> announce) {
    long started = System.nanoTime();
    long startedMillis = System.currentTimeMillis();
    List<ProbeOutcome.ServerResult> servers = new ArrayList<>();
    Map<NetworkPath, ProbeSite> sites = new LinkedHashMap<>();
    NetClient client =
        vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true).setConnectTimeout(5000));
    try {
      for (ProbeScenario.Server s : scenario.servers()) {
        if (interrupted.get()) break;
        try {
          ProbeSite site = sites.get(s.path());
          if (site == null) {
            site = ProbeSite.open(s.path());
            sites.put(s.path(), site);
          }
          ProbeSite.Server at =
              site.start(
                  new UploadServer.Options(
                      new HostPort("127.0.0.1", 0),
                      s.rcvbufBytes(),
                      s.readDelayNanos(),
                      s.noDelay()));
          announce.accept(s.name() + ": " + at.description() + " over " + s.path().describe());
          servers.add(scenario.isUpload() ? upload(s, at, client, announce) : keepAlive(s, at));
        } catch (Interrupted e) {
          break;
        } catch (VethLink.Unavailable | IOException e) {
          announce.accept(s.name() + ": not measured: " + e.getMessage());
          servers.add(report(s, null, null, null, e.getMessage()));
        } catch (Exception e) {
          String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
          announce.accept(s.name() + ": not measured: " + why);
          servers.add(report(s, null, null, null, why));
        }
      }
    } finally {
      for (ProbeSite site : sites.values()) site.close();
      client.close();
    }
    return new ProbeOutcome(
        startedMillis,
        Math.round((System.nanoTime() - started) / 1e7) / 100.0,
        interrupted.get(),
        servers);
  }

  private ProbeOutcome.ServerResult upload(
      ProbeScenario.Server s, ProbeSite.Server at, NetClient client, Consumer<String> announce)
      throws Exception {
    ProbeScenario.Upload u = scenario.upload();
    UploadProbe probe =
        new UploadProbe(
            u.attempts(),
            u.stallOverNanos() / 1e6,
            u.tolerance(),
            bytes -> {
              if (interrupted.get()) throw new Interrupted();
              return UploadAttempt.run(vertx, client, at.address(), bytes, u.timeoutNanos())
                  .await(u.timeoutNanos() / 1_000_000 + 10_000, TimeUnit.MILLISECONDS);
            },
            line -> {});
    UploadProbe.Answer a = probe.run(u.sizes());
    announce.accept(s.name() + ": " + a.verdict());
    return report(
        s,
        at,
        new ProbeOutcome.UploadResult(
            rows(a.sweep()),
            rows(a.bisection()),
            a.baselineMs(),
            a.lastCleanBytes(),
            a.stallFromBytes(),
            a.conclusive(),
            a.verdict()),
        null,
        null);
  }

  private static List<ProbeOutcome.SizeRow> rows(List<UploadProbe.SizeResult> sizes) {
    List<ProbeOutcome.SizeRow> out = new ArrayList<>();
    for (UploadProbe.SizeResult r : sizes) {
      int failed = (int) r.attempts().stream().filter(a -> !a.ok()).count();
      boolean none = failed == r.attempts().size();
      out.add(
          new ProbeOutcome.SizeRow(
              r.bodyBytes(),
              r.attempts().size(),
              failed,
              none ? null : r.medianMs(),
              none ? null : r.minMs(),
              none ? null : r.maxMs(),
              r.retransmits() < 0 ? null : r.retransmits(),
              Double.isNaN(r.rttMs()) ? null : r.rttMs()));
    }
    return out;
  }

  private ProbeOutcome.ServerResult keepAlive(ProbeScenario.Server s, ProbeSite.Server at)
      throws IOException, Interrupted {
    ProbeScenario.KeepAlive k = scenario.keepAlive();
    List<KeepAliveProbe.Result> results = new ArrayList<>();
    for (boolean noDelay : k.clientNoDelay()) {
      if (interrupted.get()) throw new Interrupted();
      KeepAliveProbe.warmUp(at.address(), k.bodyBytes());
      results.add(KeepAliveProbe.run(at.address(), k.requests(), k.bodyBytes(), noDelay));
    }
    double fastest = results.stream().mapToDouble(KeepAliveProbe.Result::minMs).min().orElse(0);
    double over = k.stallOverNanos() / 1e6;
    List<ProbeOutcome.KeepAliveRow> rows = new ArrayList<>();
    for (KeepAliveProbe.Result r : results) {
      rows.add(
          new ProbeOutcome.KeepAliveRow(
              r.clientNoDelay(),
              r.requests(),
              r.meanMs(),
              r.p50Ms(),
              r.p99Ms(),
              r.maxMs(),
              r.stalls(fastest, over),
              r.totalMs()));
    }
    return report(s, at, null, new ProbeOutcome.KeepAliveResult(over, fastest, rows), null);
  }

  private static ProbeOutcome.ServerResult report(
      ProbeScenario.Server s,
      ProbeSite.Server at,
      ProbeOutcome.UploadResult upload,
      ProbeOutcome.KeepAliveResult keepAlive,
      String error) {
    return new ProbeOutcome.ServerResult(
        s.name(),
        s.path().kind().text,
        s.path().mtu(),
        at == null ? null : at.address().toString(),
        s.rcvbufBytes() == 0 ? null : s.rcvbufBytes(),
        at == null ? null : at.grantedRcvbuf(),
        s.readDelayNanos() / 1e6,
        s.noDelay(),
        upload,
        keepAlive,
        error);
  }
}
