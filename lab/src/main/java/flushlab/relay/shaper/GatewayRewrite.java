package flushlab.relay.shaper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.Json;
import flushlab.http.Headers;
import flushlab.http.HttpParseException;
import flushlab.http.HttpResponseParser;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An AI gateway that parses each OpenAI event of an SSE response and writes it out again, as
 * gateways that log, meter or translate streams do: every object's keys in reverse order, a space
 * after each {@code :} and {@code ,}, and (with drop-pi) without flushlab's pi_seq and pi_ts, as a
 * gateway that keeps only OpenAI's fields would. Each event leaves when it is complete, so the
 * timing is the upstream's; only the bytes change (a fault in the no-loss sense). Other responses
 * pass as they came. An event larger than 1 MiB fails the connection.
 */
public final class GatewayRewrite extends Shaper {
  public static final Param DROP_PI =
      Param.bool(
          "drop-pi",
          "false",
          "drop pi_seq and pi_ts, as a gateway that keeps only OpenAI's fields does");

  public static final ShaperType TYPE =
      new ShaperType(
          "gateway-rewrite",
          true,
          "an AI gateway that re-serialises each OpenAI event (keys reordered, spaces added, pi_* fields kept or dropped)",
          List.of(DROP_PI),
          "gateway-rewrite,drop-pi=true",
          p -> () -> new GatewayRewrite(p));

  static final int MAX_EVENT_BYTES = 1 << 20;

  private final boolean dropPi;
  private final HttpResponseParser parser;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /**
   * The current response's body: SSE that this shaper rewrites (else its bytes pass as they came).
   */
  private boolean rewriting;

  private boolean chunked;

  /**
   * True when the chunk being handled touched a rewritten response: its output replaces its bytes.
   */
  private boolean touched;

  private boolean opaque;
  private final ByteArrayOutputStream event = new ByteArrayOutputStream();

  /**
   * Characters on the body's current line, CR aside: 0 at a line break means a blank line (an
   * event's end).
   */
  private int lineChars;

  GatewayRewrite(Params p) {
    this.dropPi = p.bool(DROP_PI);
    this.parser =
        new HttpResponseParser(
            new HttpResponseParser.Listener() {
              @Override
              public void onHead(int status, String reason, Headers headers) {
                String type = headers.get("Content-Type");
                rewriting =
                    type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
                if (!rewriting) return;
                touched = true;
                chunked = headers.has("Transfer-Encoding", "chunked");
                StringBuilder h =
                    new StringBuilder("HTTP/1.1 ")
                        .append(status)
                        .append(' ')
                        .append(reason)
                        .append("\r\n");
                for (int i = 0; i < headers.size(); i++)
                  h.append(headers.name(i)).append(": ").append(headers.value(i)).append("\r\n");
                out.writeBytes(h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
              }

              @Override
              public void onBody(byte[] bytes, int off, int len) {
                if (rewriting) body(bytes, off, len);
              }

              @Override
              public void onComplete() {
                if (!rewriting) return;
                if (event.size() > 0)
                  emit(event.toByteArray()); // an unterminated last event, as it came
                event.reset();
                if (chunked) out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                rewriting = false;
              }
            });
  }

  @Override
  public void accept(Chunk c) {
    if (c.kind != Chunk.Kind.DATA || opaque) {
      next.accept(c);
      return;
    }
    out.reset();
    touched = rewriting;
    byte[] bytes = c.bytes.getBytes();
    try {
      parser.feed(bytes, 0, bytes.length);
    } catch (HttpParseException e) {
      opaque = true; // the relay forwards what it cannot parse; so does a gateway that gives up
      next.accept(c);
      return;
    }
    if (!touched) {
      next.accept(c);
    } else if (out.size() > 0) {
      next.accept(c.withBytes(Buffer.buffer(out.toByteArray())));
    }
  }

  /**
   * Splits body bytes into events at blank lines ("\n\n" or "\r\n\r\n"); each complete one is
   * rewritten and sent.
   */
  private void body(byte[] b, int off, int len) {
    int start = off;
    for (int i = off; i < off + len; i++) {
      byte ch = b[i];
      if (ch == '\r') continue;
      if (ch != '\n') {
        lineChars++;
        continue;
      }
      boolean blankLine = lineChars == 0;
      lineChars = 0;
      if (blankLine) {
        event.write(b, start, i + 1 - start);
        emit(rewrite(event.toByteArray()));
        event.reset();
        start = i + 1;
      }
    }
    event.write(b, start, off + len - start);
    if (event.size() > MAX_EVENT_BYTES) {
      ctx.fail("gateway-rewrite shaper: an SSE event over " + (MAX_EVENT_BYTES >> 20) + " MiB");
      event.reset();
    }
  }

  private void emit(byte[] e) {
    if (e.length == 0) return;
    if (chunked)
      out.writeBytes((Integer.toHexString(e.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(e);
    if (chunked) out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * One event, its data line's JSON written again; anything else (comments, [DONE], event: lines)
   * as it came.
   */
  static byte[] rewrite(byte[] eventBytes, boolean dropPi) {
    String text = new String(eventBytes, StandardCharsets.UTF_8);
    StringBuilder sb = new StringBuilder(text.length() + 64);
    for (String line : text.split("\n", -1)) {
      boolean cr = line.endsWith("\r");
      if (cr) line = line.substring(0, line.length() - 1);
      if (line.startsWith("data: {")) {
        try {
          JsonNode n = Json.MAPPER.readTree(line.substring(6));
          if (dropPi && n instanceof ObjectNode o) o.remove(List.of("pi_seq", "pi_ts"));
          line = "data: " + spaced(reversed(n).toString());
        } catch (Exception e) {
          // not JSON after all: a gateway passes it on untouched
        }
      }
      sb.append(line).append(cr ? "\r\n" : "\n");
    }
    sb.setLength(sb.length() - 1); // split gives one piece more than there are line breaks
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private byte[] rewrite(byte[] eventBytes) {
    return rewrite(eventBytes, dropPi);
  }

  /** A copy with every object's keys in reverse order. */
  static JsonNode reversed(JsonNode n) {
    if (n instanceof ObjectNode o) {
      List<String> names = new ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      ObjectNode r = Json.MAPPER.createObjectNode();
      for (int i = names.size() - 1; i >= 0; i--)
        r.set(names.get(i), reversed(o.get(names.get(i))));
      return r;
    }
    if (n instanceof ArrayNode a) {
      ArrayNode r = Json.MAPPER.createArrayNode();
      a.forEach(x -> r.add(reversed(x)));
      return r;
    }
    return n;
  }

  /**
   * Compact JSON with a space after every ':' and ',' outside strings (one line: SSE data stays one
   * line).
   */
  static String spaced(String json) {
    StringBuilder sb = new StringBuilder(json.length() + json.length() / 8);
    boolean inString = false;
    for (int i = 0; i < json.length(); i++) {
      char ch = json.charAt(i);
      sb.append(ch);
      if (inString) {
        if (ch == '\\') {
          sb.append(json.charAt(++i));
        } else if (ch == '"') {
          inString = false;
        }
      } else if (ch == '"') {
        inString = true;
      } else if (ch == ':' || ch == ',') {
        sb.append(' ');
      }
    }
    return sb.toString();
  }
}
