package flushlab.emitter;

import flushlab.core.FrameCodec;
import flushlab.core.Units;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a {@code GET /sse} request asks for, parsed from its query and validated. A bad value is
 * refused with a {@link BadRequest} naming the parameter and what is allowed.
 */
public record SseStreamSpec(
    int frames,
    int frameBytes,
    long intervalNanos,
    long thinkNanos,
    boolean chunked,
    boolean chunkedEvenForHttp10,
    List<String[]> extraHeaders) {

  public static final int MAX_FRAMES = 1_000_000;
  public static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;
  public static final long MAX_INTERVAL_NANOS = 60_000_000_000L;
  public static final long MAX_THINK_NANOS = 60_000_000_000L;
  public static final long MAX_STREAM_NANOS = 3_600_000_000_000L;
  public static final long MAX_TOTAL_BYTES = 1L << 30;

  public static final String PARAMETERS =
      "frames, size, interval, think, total, transfer, header";

  /** A request the emitter refuses with HTTP 400 and this one-line reason. */
  public static class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadRequest(String message) {
      super(message);
    }
  }

  public boolean paced() {
    return intervalNanos > 0;
  }

  public static SseStreamSpec parse(String query) {
    int frames = 41;
    long size = 60;
    long interval = 50_000_000L;
    long think = 0;
    long total = -1;
    boolean framesGiven = false;
    boolean chunked = true;
    boolean always = false;
    List<String[]> headers = new ArrayList<>();
    if (query != null && !query.isEmpty()) {
      for (String pair : query.split("&")) {
        if (pair.isEmpty()) continue;
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq));
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
        switch (key) {
          case "frames":
            frames = (int) integer(key, value, 1, MAX_FRAMES, "");
            framesGiven = true;
            break;
          case "size":
            size = bytes(key, value, FrameCodec.MIN_FRAME_BYTES, MAX_FRAME_BYTES);
            break;
          case "interval":
            interval = duration(key, value, 0, MAX_INTERVAL_NANOS);
            break;
          case "think":
            think = duration(key, value, 0, MAX_THINK_NANOS);
            break;
          case "total":
            total = bytes(key, value, FrameCodec.MIN_FRAME_BYTES, MAX_TOTAL_BYTES);
            break;
          case "transfer":
            switch (value.toLowerCase(Locale.ROOT)) {
              case "chunked": chunked = true; break;
              case "close": chunked = false; break;
              case "chunked-always": chunked = true; always = true; break;
              default: throw new BadRequest("bad parameter 'transfer': '" + value + "' (allowed: chunked, close, chunked-always)");
            }
            break;
          case "header": {
            int colon = value.indexOf(':');
            String name = colon <= 0 ? "" : value.substring(0, colon).trim();
            if (name.isEmpty() || !name.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")
                || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
              throw new BadRequest("bad parameter 'header': '" + value + "' (allowed: Name:value, a token name and a single-line value)");
            }
            headers.add(new String[] {name, value.substring(colon + 1).trim()});
            break;
          }
          default:
            throw new BadRequest("unknown parameter '" + key + "' (known: " + PARAMETERS + ")");
        }
      }
    }
    if (total >= 0) {
      if (framesGiven) throw new BadRequest("bad parameters: give 'frames' or 'total', not both");
      long n = (total + size - 1) / size;
      if (n > MAX_FRAMES) {
        throw new BadRequest("bad parameter 'total': " + total + " B in frames of " + size + " B makes " + n
            + " frames (allowed: at most " + MAX_FRAMES + ")");
      }
      frames = (int) n;
    }
    if (frames * size > MAX_TOTAL_BYTES) {
      throw new BadRequest("bad parameters: frames x size is " + frames * size + " B (allowed: at most " + MAX_TOTAL_BYTES + " B)");
    }
    if (think + interval * (long) (frames - 1) > MAX_STREAM_NANOS) {
      throw new BadRequest("bad parameters: think + interval x frames exceeds the 1 hour limit of one stream");
    }
    if (size < FrameCodec.fixedBytes(frames - 1)) {
      throw new BadRequest("bad parameter 'size': " + size + " B cannot hold frame " + (frames - 1)
          + " (allowed: at least " + FrameCodec.fixedBytes(frames - 1) + " B)");
    }
    return new SseStreamSpec(frames, (int) size, interval, think, chunked, always, List.copyOf(headers));
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new BadRequest("bad percent-encoding in '" + s + "'");
    }
  }

  private static long integer(String key, String value, long min, long max, String unit) {
    long v;
    try {
      v = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new BadRequest("bad parameter '" + key + "': '" + value + "' is not a whole number (allowed: " + min + ".." + max + unit + ")");
    }
    if (v < min || v > max) {
      throw new BadRequest("bad parameter '" + key + "': " + v + " is out of range (allowed: " + min + ".." + max + unit + ")");
    }
    return v;
  }

  /** Sizes accept a unit ("2KiB") or a bare number of bytes. */
  private static long bytes(String key, String value, long min, long max) {
    long v;
    try {
      v = value.trim().chars().allMatch(Character::isDigit) && !value.isBlank()
          ? Long.parseLong(value.trim()) : Units.parseBytes(value);
    } catch (IllegalArgumentException e) {
      throw new BadRequest("bad parameter '" + key + "': " + e.getMessage() + " (allowed: " + min + ".." + max + " B)");
    }
    if (v < min || v > max) {
      throw new BadRequest("bad parameter '" + key + "': " + v + " B is out of range (allowed: " + min + ".." + max + " B)");
    }
    return v;
  }

  private static long duration(String key, String value, long min, long max) {
    long v;
    try {
      v = Units.parseDurationNanos(value);
    } catch (IllegalArgumentException e) {
      throw new BadRequest("bad parameter '" + key + "': " + e.getMessage());
    }
    if (v < min || v > max) {
      throw new BadRequest("bad parameter '" + key + "': " + value + " is out of range (allowed: "
          + Units.formatDuration(min) + ".." + Units.formatDuration(max) + ")");
    }
    return v;
  }
}
