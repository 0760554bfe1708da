package flushlab.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

/**
 * HTTP/2's wire constants (RFC 9113) and the few frames the lab writes by hand: a frame is a 9-byte
 * header (24-bit length, type, flags, 31-bit stream id) and its payload.
 */
public final class H2 {

  /**
   * Header fields that are about one HTTP/1.1 connection, which HTTP/2 does not carry (RFC 9113
   * 8.2.2): a side translating between the two drops them, each adding the ones it frames itself.
   */
  public static final Set<String> CONNECTION_SPECIFIC =
      Set.of("connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade");

  private H2() {}

  /**
   * What a client sends first on an h2 connection (before its SETTINGS); h2c by prior knowledge
   * starts with it too.
   */
  public static final byte[] PREFACE =
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  public static final int FRAME_HEADER_BYTES = 9;

  public static final int DATA = 0;
  public static final int HEADERS = 1;
  public static final int PRIORITY = 2;
  public static final int RST_STREAM = 3;
  public static final int SETTINGS = 4;
  public static final int PUSH_PROMISE = 5;
  public static final int PING = 6;
  public static final int GOAWAY = 7;
  public static final int WINDOW_UPDATE = 8;
  public static final int CONTINUATION = 9;

  public static final int FLAG_END_STREAM = 0x1;
  public static final int FLAG_ACK = 0x1;
  public static final int FLAG_END_HEADERS = 0x4;
  public static final int FLAG_PADDED = 0x8;
  public static final int FLAG_PRIORITY = 0x20;

  public static final int SETTINGS_HEADER_TABLE_SIZE = 1;
  public static final int SETTINGS_ENABLE_PUSH = 2;
  public static final int SETTINGS_MAX_CONCURRENT_STREAMS = 3;
  public static final int SETTINGS_INITIAL_WINDOW_SIZE = 4;
  public static final int SETTINGS_MAX_FRAME_SIZE = 5;
  public static final int SETTINGS_MAX_HEADER_LIST_SIZE = 6;

  /**
   * The window every stream and the connection start with, and the largest frame payload, until
   * SETTINGS say otherwise.
   */
  public static final int DEFAULT_WINDOW = 65_535;

  public static final int DEFAULT_MAX_FRAME = 16_384;
  public static final int MAX_WINDOW = Integer.MAX_VALUE;

  public static final int NO_ERROR = 0;
  public static final int PROTOCOL_ERROR = 1;
  public static final int INTERNAL_ERROR = 2;
  public static final int FLOW_CONTROL_ERROR = 3;
  public static final int REFUSED_STREAM = 7;
  public static final int CANCEL = 8;
  public static final int ENHANCE_YOUR_CALM = 11;

  private static final String[] ERRORS = {
    "NO_ERROR",
    "PROTOCOL_ERROR",
    "INTERNAL_ERROR",
    "FLOW_CONTROL_ERROR",
    "SETTINGS_TIMEOUT",
    "STREAM_CLOSED",
    "FRAME_SIZE_ERROR",
    "REFUSED_STREAM",
    "CANCEL",
    "COMPRESSION_ERROR",
    "CONNECT_ERROR",
    "ENHANCE_YOUR_CALM",
    "INADEQUATE_SECURITY",
    "HTTP_1_1_REQUIRED"
  };

  /** A SETTINGS identifier's name as RFC 9113 gives it, lower case ("setting_N" when unknown). */
  public static String settingName(int id) {
    return switch (id) {
      case SETTINGS_HEADER_TABLE_SIZE -> "header_table_size";
      case SETTINGS_ENABLE_PUSH -> "enable_push";
      case SETTINGS_MAX_CONCURRENT_STREAMS -> "max_concurrent_streams";
      case SETTINGS_INITIAL_WINDOW_SIZE -> "initial_window_size";
      case SETTINGS_MAX_FRAME_SIZE -> "max_frame_size";
      case SETTINGS_MAX_HEADER_LIST_SIZE -> "max_header_list_size";
      case 8 -> "enable_connect_protocol";
      default -> "setting_" + id;
    };
  }

  /** An error code's RFC name ("CANCEL"), or its number. */
  public static String errorName(long code) {
    return code >= 0 && code < ERRORS.length ? ERRORS[(int) code] : "error " + code;
  }

  /** Writes a frame header at {@code off}. */
  public static void header(byte[] out, int off, int length, int type, int flags, int streamId) {
    out[off] = (byte) (length >>> 16);
    out[off + 1] = (byte) (length >>> 8);
    out[off + 2] = (byte) length;
    out[off + 3] = (byte) type;
    out[off + 4] = (byte) flags;
    int31(out, off + 5, streamId);
  }

  public static byte[] frame(int type, int flags, int streamId, byte[] payload) {
    byte[] f = new byte[FRAME_HEADER_BYTES + payload.length];
    header(f, 0, payload.length, type, flags, streamId);
    System.arraycopy(payload, 0, f, FRAME_HEADER_BYTES, payload.length);
    return f;
  }

  /** A SETTINGS frame of (id, value) pairs. */
  public static byte[] settings(int... idValue) {
    byte[] p = new byte[idValue.length / 2 * 6];
    for (int i = 0; i < idValue.length / 2; i++) {
      p[i * 6] = (byte) (idValue[2 * i] >>> 8);
      p[i * 6 + 1] = (byte) idValue[2 * i];
      int31(p, i * 6 + 2, idValue[2 * i + 1]);
      p[i * 6 + 2] |= (byte) ((idValue[2 * i + 1] >>> 24) & 0x80);
    }
    return frame(SETTINGS, 0, 0, p);
  }

  /**
   * The (id, value) pairs of an HTTP2-Settings header (an h2c Upgrade's: a SETTINGS payload in
   * base64url); null when it does not decode.
   */
  public static int[] settingsFromHeader(String value) {
    byte[] p;
    try {
      p = Base64.getUrlDecoder().decode(value.trim().replace("=", ""));
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (p.length % 6 != 0) return null;
    int[] out = new int[p.length / 6 * 2];
    for (int i = 0; i < p.length / 6; i++) {
      out[2 * i] = ((p[i * 6] & 0xff) << 8) | (p[i * 6 + 1] & 0xff);
      out[2 * i + 1] =
          ((p[i * 6 + 2] & 0xff) << 24)
              | ((p[i * 6 + 3] & 0xff) << 16)
              | ((p[i * 6 + 4] & 0xff) << 8)
              | (p[i * 6 + 5] & 0xff);
    }
    return out;
  }

  public static byte[] settingsAck() {
    return frame(SETTINGS, FLAG_ACK, 0, new byte[0]);
  }

  public static byte[] windowUpdate(int streamId, int increment) {
    byte[] p = new byte[4];
    int31(p, 0, increment);
    return frame(WINDOW_UPDATE, 0, streamId, p);
  }

  public static byte[] pingAck(byte[] opaque) {
    return frame(PING, FLAG_ACK, 0, opaque);
  }

  public static byte[] rstStream(int streamId, int code) {
    byte[] p = new byte[4];
    int32(p, 0, code);
    return frame(RST_STREAM, 0, streamId, p);
  }

  public static byte[] goAway(int lastStreamId, int code) {
    byte[] p = new byte[8];
    int31(p, 0, lastStreamId);
    int32(p, 4, code);
    return frame(GOAWAY, 0, 0, p);
  }

  static void int31(byte[] out, int off, int v) {
    out[off] = (byte) ((v >>> 24) & 0x7f);
    out[off + 1] = (byte) (v >>> 16);
    out[off + 2] = (byte) (v >>> 8);
    out[off + 3] = (byte) v;
  }

  static void int32(byte[] out, int off, int v) {
    out[off] = (byte) (v >>> 24);
    out[off + 1] = (byte) (v >>> 16);
    out[off + 2] = (byte) (v >>> 8);
    out[off + 3] = (byte) v;
  }

  static int read31(byte[] b, int off) {
    return ((b[off] & 0x7f) << 24)
        | ((b[off + 1] & 0xff) << 16)
        | ((b[off + 2] & 0xff) << 8)
        | (b[off + 3] & 0xff);
  }

  static long read32(byte[] b, int off) {
    return ((b[off] & 0xffL) << 24)
        | ((b[off + 1] & 0xffL) << 16)
        | ((b[off + 2] & 0xffL) << 8)
        | (b[off + 3] & 0xffL);
  }
}
