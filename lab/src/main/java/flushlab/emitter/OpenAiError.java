package flushlab.emitter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.Json;

/**
 * A request OpenAI's API would refuse, answered the way it answers: the status, and {@code
 * {"error": {"message", "type", "param", "code"}}}, which SDKs and gateways parse.
 */
public final class OpenAiError extends BadRequest {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String type;
  private final String param;
  private final String code;

  public OpenAiError(int status, String type, String param, String code, String message) {
    super(message);
    this.status = status;
    this.type = type;
    this.param = param;
    this.code = code;
  }

  /** A bad field: 400 invalid_request_error naming it. */
  static OpenAiError invalid(String param, String message) {
    return new OpenAiError(400, "invalid_request_error", param, null, message);
  }

  static OpenAiError unauthorized() {
    return new OpenAiError(
        401,
        "invalid_request_error",
        null,
        "invalid_api_key",
        "Incorrect API key provided. The flushlab emitter was started with --api-key; send 'Authorization: Bearer <that key>'.");
  }

  static OpenAiError noRoute(String method, String path) {
    return new OpenAiError(
        404,
        "invalid_request_error",
        null,
        "unknown_url",
        "Invalid URL (" + method + " " + path + ")");
  }

  public int status() {
    return status;
  }

  /** The JSON body. */
  public String body() {
    ObjectNode root = Json.MAPPER.createObjectNode();
    ObjectNode e = root.putObject("error").put("message", getMessage()).put("type", type);
    if (param == null) e.putNull("param");
    else e.put("param", param);
    if (code == null) e.putNull("code");
    else e.put("code", code);
    return root.toString();
  }

  /**
   * Any refusal of a /v1/ request in OpenAI's shape (a field error without a known field gets param
   * null).
   */
  static OpenAiError of(BadRequest e) {
    return e instanceof OpenAiError o ? o : invalid(null, e.getMessage());
  }
}
