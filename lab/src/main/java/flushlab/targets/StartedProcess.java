package flushlab.targets;

import flushlab.core.HostPort;
import flushlab.proxy.ProxyProcess;
import flushlab.tls.ClientTls;
import flushlab.tls.ServerTls;

/** A real proxy the lab started from its template, forwarding to the lab's emitter. */
final class StartedProcess implements StartedTarget {
  private final ProxyProcess proc;
  private final ProcessInfo info;

  private StartedProcess(ProxyProcess proc, ProcessInfo info) {
    this.proc = proc;
    this.info = info;
  }

  static StartedProcess start(Target.Process t, TargetContext ctx) throws TargetStartFailure {
    ProxyProcess proc;
    try {
      proc =
          ProxyProcess.start(
              t.proxy(),
              t.config(),
              ctx.site().listenHost(),
              ctx.emitter().host(),
              ctx.emitter().port(),
              ctx.site()::placed);
    } catch (ProxyProcess.StartFailure e) {
      throw new TargetStartFailure("target " + t.name() + ": " + e.getMessage(), e);
    }
    ProcessInfo info =
        new ProcessInfo(
            t.proxy().binaryName,
            proc.version(),
            proc.pid(),
            t.config().toString(),
            proc.configText(),
            proc.effectiveConfig(),
            proc.effectiveConfig() != null
                ? null
                : t.proxy().binaryName
                    + " cannot print the configuration it parsed; config_text is what it ran");
    ctx.announce()
        .accept(
            "started "
                + t.name()
                + ": "
                + firstLine(proc.version())
                + " (pid "
                + proc.pid()
                + ") on "
                + proc.host()
                + ":"
                + proc.port()
                + (proc.tls() ? " (TLS, the lab's certificate)" : "")
                + " -> emitter "
                + ctx.emitter()
                + (t.path().isVeth() ? " (" + t.path().describe() + ")" : ""));
    return new StartedProcess(proc, info);
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  @Override
  public long pid() {
    return proc.pid();
  }

  @Override
  public HostPort address() {
    return new HostPort(proc.host(), proc.port());
  }

  @Override
  public ClientTls tls() {
    return proc.tls() ? ServerTls.selfSigned().pinnedByClients() : null;
  }

  @Override
  public ProcessInfo process() {
    return info;
  }

  @Override
  public void close() {
    proc.close();
  }
}
