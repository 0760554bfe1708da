package flushlab.relay.shaper;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.core.Json;
import flushlab.core.Named;
import flushlab.http.Headers;
import flushlab.http.HttpParseException;
import flushlab.http.HttpResponseParser;
import flushlab.http.SseEventParser;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * Everything after the head is held until the first event that carries content (LiteLLM held
 * Anthropic's message_start until the model had finished thinking): the events that announce a
 * response (response.created, a role-only delta, comment keep-alives) arrive together with its
 * first token, so a long think looks like a server that sends nothing, and a client's "thinking"
 * indicator and an idle timeout both see silence. What counts as content is a preset: an OpenAI
 * chat delta with non-empty {@code choices[0].delta.content}; a Responses API {@code
 * response.output_text.delta}; an Anthropic {@code content_block_delta}; or any data event at all
 * (holding only comments). After it, the response streams as it came.
 */
public final class FirstContent extends Shaper {
  public static final Param CONTENT =
      Param.choice(
          "content",
          Content.CHAT,
          Content.class,
          "what the first content event is: chat (choices[0].delta.content non-empty), responses (response.output_text.delta), "
              + "anthropic (content_block_delta), any (the first data event: only comments are held)");
  public static final Param CAP =
      Param.size("cap", "16MiB", 1024, 1L << 30, "most bytes held before the connection fails");

  public static final ShaperType TYPE =
      new ShaperType(
          "first-content",
          false,
          "a gateway that holds a response until its first content event (LiteLLM holding message_start through a think): "
              + "the events before it arrive with the first token",
          List.of(CONTENT, CAP),
          "first-content=responses",
          p -> () -> new FirstContent(p));

  /** What the first content event is. */
  public enum Content implements Named {
    CHAT,
    RESPONSES,
    ANTHROPIC,
    ANY
  }

  private final Content content;
  private final long capBytes;
  private final HeadBoundary head = new HeadBoundary();

  /**
   * A response's bytes as a client reads them, made afresh for each response (its head starts a
   * read of its own).
   */
  private HttpResponseParser http;

  private SseEventParser sse;
  private byte[] scratch = new byte[4096];

  /** Held body bytes, and when the oldest of them arrived. */
  private Buffer held;

  private long heldSince;

  /** The response's first content event has been seen: it streams from here on. */
  private boolean open = true;

  private boolean opaque;

  FirstContent(Params p) {
    this.content = p.choice(CONTENT, Content.class);
    this.capBytes = p.get(CAP);
  }

  private void newResponse() {
    sse =
        new SseEventParser(
            (data, len) -> {
              if (!open && isContent(data, len)) open = true;
            });
    http =
        new HttpResponseParser(
            new HttpResponseParser.Listener() {
              @Override
              public void onHead(int status, String reason, Headers headers) {}

              @Override
              public void onBody(byte[] bytes, int off, int len) {
                if (!open) sse.feed(bytes, off, len);
              }

              @Override
              public void onComplete() {}
            });
    opaque = false;
  }

  private boolean isContent(byte[] data, int len) {
    if (content == Content.ANY) return true;
    JsonNode n;
    try {
      n = Json.MAPPER.readTree(data, 0, len);
    } catch (Exception e) {
      return false; // not JSON ([DONE], a plain frame): not content
    }
    if (n == null) return false;
    return switch (content) {
      case CHAT -> {
        JsonNode c = n.path("choices").path(0).path("delta").path("content");
        yield c.isTextual() && !c.asText().isEmpty();
      }
      case RESPONSES -> n.path("type").asText().equals("response.output_text.delta");
      case ANTHROPIC -> n.path("type").asText().equals("content_block_delta");
      case ANY -> true;
    };
  }

  @Override
  public void accept(Chunk c) {
    switch (c.kind) {
      case RESPONSE_START -> {
        releaseHeld();
        head.start();
        newResponse();
        open = false;
        next.accept(c);
      }
      case DATA -> data(c);
      case RESPONSE_END, CLOSE, RESET -> {
        releaseHeld();
        next.accept(c);
      }
      default -> next.accept(c);
    }
  }

  private void data(Chunk c) {
    parse(c);
    int h = head.headBytes(c);
    if (h == c.length()) {
      next.accept(c);
      return;
    }
    if (h > 0) next.accept(c.withBytes(c.bytes.slice(0, h).copy()));
    Buffer body = h == 0 ? c.bytes : c.bytes.slice(h, c.length());
    if (held == null && open) {
      next.accept(h == 0 ? c : c.withBytes(body.copy()));
      return;
    }
    if (held == null) {
      held = Buffer.buffer(Math.max(256, body.length()));
      heldSince = c.arrivalNanos;
    }
    if (held.length() + (long) body.length() > capBytes || !ctx.holdBytes(body.length())) {
      held = null;
      ctx.fail("first-content held more than " + capBytes + " bytes without a content event");
      return;
    }
    held.appendBuffer(body);
    if (open)
      releaseHeld(); // this read carried the first content event: everything held leaves with it
  }

  /** Feeds the response parser (and through it the event parser) until the first content event. */
  private void parse(Chunk c) {
    if (opaque || http == null || open) return;
    int n = c.length();
    if (scratch.length < n) scratch = new byte[Math.max(n, scratch.length * 2)];
    c.bytes.getBytes(0, n, scratch, 0);
    try {
      http.feed(scratch, 0, n);
    } catch (HttpParseException | IllegalStateException e) {
      opaque = true; // not a response this shaper can read: it stops holding
      open = true;
    }
  }

  private void releaseHeld() {
    if (held == null) return;
    Buffer b = held;
    held = null;
    ctx.releaseBytes(b.length());
    next.accept(Chunk.data(b, heldSince));
  }

  @Override
  public void release() {
    held = null;
  }
}
