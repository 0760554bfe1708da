package flushlab.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.Json;
import flushlab.core.Named;
import flushlab.relay.shaper.Bandwidth;
import flushlab.relay.shaper.Latency;
import flushlab.relay.shaper.Reset;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.relay.shaper.ShaperSpecException;
import flushlab.relay.shaper.ShaperType;
import flushlab.relay.shaper.Slicer;
import flushlab.relay.shaper.SlowClose;
import flushlab.relay.shaper.Stall;
import flushlab.relay.shaper.Truncate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A toxic as Toxiproxy's API has it (name, type, stream, toxicity, attributes), and the lab shapers
 * it becomes. Toxiproxy's own types keep their attribute names and units (milliseconds, KB/s,
 * bytes; the slicer's delay in microseconds); every lab shaper is a further type whose attributes
 * are its parameters, written as the command line writes them ("2KiB", "200ms").
 *
 * @param toxicity the fraction of new connections the toxic applies to (0..1)
 * @param shapers what it does to responses ({@code stream: downstream})
 * @param requestDelayNanos what it does to requests ({@code stream: upstream}: latency only)
 */
public record Toxic(
    String name,
    String type,
    Direction stream,
    double toxicity,
    ObjectNode attributes,
    List<ShaperRegistry.Spec> shapers,
    long requestDelayNanos) {
  /**
   * Which way a toxic acts, as Toxiproxy names it: on responses (downstream) or on requests
   * (upstream).
   */
  public enum Direction implements Named {
    DOWNSTREAM,
    UPSTREAM
  }

  /** Toxiproxy's toxic types, each mapped onto the lab's faults. */
  public static final List<String> TOXIPROXY_TYPES =
      List.of(
          "latency", "bandwidth", "slow_close", "timeout", "reset_peer", "slicer", "limit_data");

  /** A request the API refuses: 400 with this message. */
  public static final class BadToxic extends Exception {
    private static final long serialVersionUID = 1L;

    public BadToxic(String message) {
      super(message);
    }
  }

  /**
   * Reads a toxic from an API body; {@code current} supplies what an update leaves out (null on
   * create).
   */
  public static Toxic from(JsonNode body, Toxic current) throws BadToxic {
    if (body == null || !body.isObject()) throw new BadToxic("the body must be a JSON object");
    String type = text(body, "type", current == null ? null : current.type());
    if (type == null || type.isEmpty()) throw new BadToxic("type: required (" + validTypes() + ")");
    String streamText =
        text(body, "stream", (current == null ? Direction.DOWNSTREAM : current.stream()).text());
    Direction stream = Named.parse(Direction.class, streamText);
    if (stream == null) {
      throw new BadToxic("stream: '" + streamText + "' is not valid (downstream or upstream)");
    }
    double toxicity =
        body.has("toxicity")
            ? body.path("toxicity").asDouble(Double.NaN)
            : current == null ? 1.0 : current.toxicity();
    if (!(toxicity >= 0 && toxicity <= 1)) throw new BadToxic("toxicity: must be a number in 0..1");
    String name = text(body, "name", current == null ? type + "_" + stream.text() : current.name());
    ObjectNode attributes =
        current == null ? Json.MAPPER.createObjectNode() : current.attributes().deepCopy();
    JsonNode given = body.path("attributes");
    if (!given.isMissingNode() && !given.isNull()) {
      if (!given.isObject()) throw new BadToxic("attributes: must be a JSON object");
      attributes.setAll((ObjectNode) given);
    }
    if (stream == Direction.UPSTREAM) {
      // the request direction: latency, each piece of the request held that long before it goes
      // upstream
      if (!type.equals("latency")) {
        throw new BadToxic(
            "stream: upstream takes a latency toxic only here (the request direction is delayed, not buffered);"
                + " '"
                + type
                + "' shapes responses: use stream downstream");
      }
      if (number(attributes, "jitter", 0) != 0)
        throw new BadToxic("attributes.jitter: upstream latency has no jitter here; give 0");
      return new Toxic(
          name,
          type,
          stream,
          toxicity,
          attributes,
          List.of(),
          number(attributes, "latency", 0) * 1_000_000L);
    }
    return new Toxic(name, type, stream, toxicity, attributes, shapers(type, attributes), 0);
  }

  private static String text(JsonNode body, String field, String otherwise) throws BadToxic {
    JsonNode v = body.path(field);
    if (v.isMissingNode() || v.isNull()) return otherwise;
    if (!v.isTextual()) throw new BadToxic(field + ": must be a string");
    return v.asText();
  }

  private static String validTypes() {
    List<String> lab = new ArrayList<>();
    for (ShaperType t : ShaperRegistry.types()) lab.add(t.name());
    return "Toxiproxy's "
        + String.join(", ", TOXIPROXY_TYPES)
        + "; or a flushlab shaper: "
        + String.join(", ", lab);
  }

  /**
   * The shapers a toxic becomes, validated now (a bad attribute is a 400 naming it, not a broken
   * relay later).
   */
  static List<ShaperRegistry.Spec> shapers(String type, ObjectNode a) throws BadToxic {
    List<ShaperRegistry.Builder> specs = new ArrayList<>();
    switch (type) {
      case "latency" ->
          specs.add(
              ShaperRegistry.build(Latency.TYPE)
                  .set(Latency.DELAY, millis(a, "latency"))
                  .set(Latency.JITTER, millis(a, "jitter")));
      case "bandwidth" -> {
        long kb = number(a, "rate", -1);
        if (kb < 1) throw new BadToxic("attributes.rate: required, in KB/s (at least 1)");
        specs.add(ShaperRegistry.build(Bandwidth.TYPE).set(Bandwidth.RATE, kb * 1000));
      }
      case "slow_close" ->
          specs.add(ShaperRegistry.build(SlowClose.TYPE).set(SlowClose.DELAY, millis(a, "delay")));
      case "timeout" -> {
        // data stops at once; after the timeout the connection closes (0: it stays open, silent)
        long t = millis(a, "timeout");
        specs.add(
            ShaperRegistry.build(Stall.TYPE)
                .set(Stall.FOR, t == 0 ? 600_000_000_000L : t)
                .set(Stall.AFTER_BYTES, 0));
        if (t > 0) specs.add(ShaperRegistry.build(Truncate.TYPE).set(Truncate.AFTER_BYTES, 0));
      }
      case "reset_peer" ->
          specs.add(ShaperRegistry.build(Reset.TYPE).set(Reset.AFTER, millis(a, "timeout")));
      case "slicer" -> {
        long size = number(a, "average_size", -1);
        if (size < 1)
          throw new BadToxic("attributes.average_size: required, in bytes (at least 1)");
        if (number(a, "size_variation", 0) != 0) {
          throw new BadToxic(
              "attributes.size_variation: flushlab's slicer cuts pieces of one size; give 0");
        }
        long delayMicros = number(a, "delay", 0);
        if (delayMicros > MAX_MILLIS * 1000)
          throw new BadToxic(
              "attributes.delay: " + delayMicros + " us is over the limit of one hour");
        specs.add(
            ShaperRegistry.build(Slicer.TYPE)
                .set(Slicer.SIZE, size)
                .set(Slicer.DELAY, delayMicros * 1000));
      }
      case "limit_data" -> {
        long bytes = number(a, "bytes", -1);
        if (bytes < 0) throw new BadToxic("attributes.bytes: required, in bytes");
        specs.add(ShaperRegistry.build(Truncate.TYPE).set(Truncate.AFTER_BYTES, bytes));
      }
      default -> {
        ShaperType lab =
            ShaperRegistry.types().stream()
                .filter(t -> t.name().equals(type))
                .findFirst()
                .orElse(null);
        if (lab == null)
          throw new BadToxic("type: '" + type + "' is not a toxic here (" + validTypes() + ")");
        ShaperRegistry.Builder b = ShaperRegistry.build(lab);
        for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          b.text(e.getKey(), e.getValue().asText());
        }
        specs.add(b);
      }
    }
    List<ShaperRegistry.Spec> out = new ArrayList<>();
    for (ShaperRegistry.Builder b : specs) {
      try {
        out.add(b.spec());
      } catch (ShaperSpecException e) {
        throw new BadToxic("attributes: " + e.getMessage());
      }
    }
    return out;
  }

  /**
   * The longest time a toxic's attribute may give: an hour, in milliseconds (the longest stream the
   * emitter serves).
   */
  static final long MAX_MILLIS = 3_600_000L;

  /**
   * The largest number any attribute may give, checked before a unit multiplies it (so nothing
   * overflows into a small value).
   */
  static final long MAX_NUMBER = 1_000_000_000_000L;

  /**
   * A Toxiproxy attribute in milliseconds, as nanoseconds (absent: 0), at most {@link #MAX_MILLIS}.
   */
  private static long millis(ObjectNode a, String field) throws BadToxic {
    long ms = number(a, field, 0);
    if (ms > MAX_MILLIS)
      throw new BadToxic(
          "attributes."
              + field
              + ": "
              + ms
              + " ms is over the limit of "
              + MAX_MILLIS
              + " ms (one hour)");
    return ms * 1_000_000L;
  }

  private static long number(ObjectNode a, String field, long otherwise) throws BadToxic {
    JsonNode v = a.path(field);
    if (v.isMissingNode() || v.isNull()) return otherwise;
    if (!v.canConvertToLong() || v.asLong() < 0 || v.asLong() > MAX_NUMBER) {
      throw new BadToxic(
          "attributes." + field + ": must be a whole number from 0 to " + MAX_NUMBER);
    }
    return v.asLong();
  }

  /** The API's JSON for this toxic. */
  public ObjectNode json() {
    ObjectNode o =
        Json.MAPPER
            .createObjectNode()
            .put("name", name)
            .put("type", type)
            .put("stream", stream.text())
            .put("toxicity", toxicity);
    o.set("attributes", attributes.deepCopy());
    return o;
  }
}
