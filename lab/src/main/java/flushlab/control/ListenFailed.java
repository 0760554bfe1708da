package flushlab.control;

/**
 * A proxy's relay could not listen (the address is in use, or not this host's): Toxiproxy's 409 for
 * a taken address.
 */
final class ListenFailed extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  ListenFailed(String message) {
    super(message);
  }
}
