package flushlab.targets;

import flushlab.core.HostPort;
import flushlab.tls.ClientTls;

/**
 * A target ready to be measured: where the client connects, what to record about it, and how to
 * stop it.
 */
public interface StartedTarget extends AutoCloseable {
  HostPort address();

  /** What the results record about the proxy process behind it, or null for other kinds. */
  default ProcessInfo process() {
    return null;
  }

  /**
   * The process the lab started for it (its workers are its descendants), or -1 when it runs in
   * this process or elsewhere.
   */
  default long pid() {
    return -1;
  }

  /** How the client checks the target's TLS, or null when it speaks plain TCP. */
  default ClientTls tls() {
    return null;
  }

  /** Stops what the lab started for it; never throws. */
  @Override
  void close();

  static StartedTarget nothingToStop(HostPort address) {
    return nothingToStop(address, null);
  }

  static StartedTarget nothingToStop(HostPort address, ClientTls tls) {
    return new StartedTarget() {
      @Override
      public HostPort address() {
        return address;
      }

      @Override
      public ClientTls tls() {
        return tls;
      }

      @Override
      public void close() {}
    };
  }
}
