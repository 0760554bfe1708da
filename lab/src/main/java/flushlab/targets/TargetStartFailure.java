package flushlab.targets;

/**
 * A target the lab could not start (a missing binary, a proxy that never listened, nothing at an
 * address).
 */
public final class TargetStartFailure extends Exception {
  private static final long serialVersionUID = 1L;

  public TargetStartFailure(String message) {
    super(message);
  }

  public TargetStartFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
