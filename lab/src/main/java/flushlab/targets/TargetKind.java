package flushlab.targets;

import flushlab.core.Named;

/**
 * The kinds of {@link Target}, as scenarios and results name them (direct, relay, process,
 * external).
 */
public enum TargetKind implements Named {
  /** The client straight to the emitter. */
  DIRECT,
  /** A built-in relay (a shaper chain) the lab starts. */
  RELAY,
  /** A real proxy binary the lab starts from a template. */
  PROCESS,
  /** A server the lab did not start. */
  EXTERNAL;
}
