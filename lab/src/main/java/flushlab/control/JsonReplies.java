package flushlab.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.Json;
import io.vertx.ext.web.RoutingContext;

/** The control API's JSON: a request's body read as an object, replies and errors written. */
final class JsonReplies {
  private JsonReplies() {}

  /** The request's JSON body, or null after answering 400. */
  static JsonNode body(RoutingContext rc) {
    try {
      String text = rc.body() == null ? null : rc.body().asString();
      JsonNode n =
          text == null || text.isBlank()
              ? Json.MAPPER.createObjectNode()
              : Json.MAPPER.readTree(text);
      if (!n.isObject()) throw new IllegalArgumentException("not a JSON object");
      return n;
    } catch (Exception e) {
      error(rc, 400, "bad request body: " + e.getMessage());
      return null;
    }
  }

  static void json(RoutingContext rc, int status, JsonNode body) {
    rc.response()
        .setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .end(Json.write(body));
  }

  /** Errors as Toxiproxy answers them: a JSON object with the message and the status. */
  static void error(RoutingContext rc, int status, String message) {
    ObjectNode o = Json.MAPPER.createObjectNode().put("error", message).put("status", status);
    json(rc, status, o);
  }
}
