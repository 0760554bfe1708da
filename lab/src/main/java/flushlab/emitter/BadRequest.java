package flushlab.emitter;

/**
 * A request the emitter refuses with HTTP 400 and this one-line reason ({@link OpenAiError} for
 * OpenAI's routes).
 */
public class BadRequest extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BadRequest(String message) {
    super(message);
  }
}
