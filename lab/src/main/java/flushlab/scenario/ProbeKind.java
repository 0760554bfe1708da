package flushlab.scenario;

import flushlab.core.Named;

/** The TCP-layer probes a probe scenario runs ({@code probe:}). */
public enum ProbeKind implements Named {
  /** A request burst timed to the response head, over a sweep of body sizes. */
  UPLOAD,
  /** Small requests on one keep-alive connection, TCP_NODELAY on and off. */
  KEEPALIVE;
}
