package flushlab.target;

import flushlab.core.HostPort;

/** A target ready to be measured: where the client connects, what to record about it, and how to stop it. */
public interface StartedTarget extends AutoCloseable {
  HostPort address();

  /** What the results record about the proxy process behind it, or null for other kinds. */
  default ProcessInfo process() {
    return null;
  }

  /** Stops what the lab started for it; never throws. */
  @Override
  void close();

  static StartedTarget nothingToStop(HostPort address) {
    return new StartedTarget() {
      @Override
      public HostPort address() {
        return address;
      }

      @Override
      public void close() {}
    };
  }
}
