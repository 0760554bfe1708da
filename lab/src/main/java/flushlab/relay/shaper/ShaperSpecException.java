package flushlab.relay.shaper;

/**
 * A shaper spec that cannot be used; the message names the shaper, the parameter and what is
 * allowed.
 */
public final class ShaperSpecException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public ShaperSpecException(String message) {
    super(message);
  }
}
