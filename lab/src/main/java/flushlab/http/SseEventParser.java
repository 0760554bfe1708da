package flushlab.http;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Incremental Server-Sent Events parser. Lines end in LF, CRLF or CR; an event is dispatched at the
 * blank line that ends it, in the call that delivers that blank line, so a frame split across reads
 * counts in the read where its terminating blank line arrives. Only the data field matters to
 * flushlab; event, id, retry and comments are skipped. The data of one event is capped.
 */
public final class SseEventParser implements EventParser {
  public static final int DEFAULT_MAX_EVENT_BYTES = 32 * 1024 * 1024;

  /** Receives each event's data (data lines joined by LF). The array is reused: copy to keep. */
  public interface Listener {
    void onEvent(byte[] data, int len);
  }

  private enum State {
    FIELD,
    DATA_VALUE_START,
    DATA_VALUE,
    SKIP_VALUE
  }

  private final Listener listener;
  private final int maxEventBytes;
  private byte[] data = new byte[256];
  private int dataLen;
  private boolean hasData;
  private final byte[] field = new byte[16];
  private int fieldLen;
  private boolean fieldOverflow;
  private State state = State.FIELD;
  private boolean lastWasCr;

  public SseEventParser(Listener listener) {
    this(listener, DEFAULT_MAX_EVENT_BYTES);
  }

  public SseEventParser(Listener listener, int maxEventBytes) {
    this.listener = listener;
    this.maxEventBytes = maxEventBytes;
  }

  @Override
  public void feed(byte[] b, int off, int len) {
    int end = off + len;
    for (int p = off; p < end; p++) {
      byte c = b[p];
      if (lastWasCr) {
        lastWasCr = false;
        if (c == '\n') continue; // the LF of a CRLF pair
      }
      if (c == '\n' || c == '\r') {
        lastWasCr = c == '\r';
        endOfLine();
        continue;
      }
      switch (state) {
        case FIELD:
          if (c == ':') {
            if (fieldLen == 4
                && !fieldOverflow
                && field[0] == 'd'
                && field[1] == 'a'
                && field[2] == 't'
                && field[3] == 'a') {
              startDataLine();
              state = State.DATA_VALUE_START;
            } else {
              state = State.SKIP_VALUE; // comment (empty field name) or a field flushlab ignores
            }
          } else if (fieldLen < field.length) {
            field[fieldLen++] = c;
          } else {
            fieldOverflow = true;
          }
          break;
        case DATA_VALUE_START:
          state = State.DATA_VALUE;
          if (c == ' ') break; // one leading space is not part of the value
          appendData(c);
          break;
        case DATA_VALUE:
          {
            // The bulk of a stream's bytes: copy the rest of the line at once rather than byte by
            // byte.
            int eol = lineEnd(b, p + 1, end);
            appendData(b, p, eol - p);
            p = eol - 1;
            break;
          }
        case SKIP_VALUE:
        default:
          break;
      }
    }
  }

  private void endOfLine() {
    if (state == State.FIELD) {
      if (fieldLen == 0 && !fieldOverflow) {
        dispatch();
      } else if (fieldLen == 4
          && !fieldOverflow
          && field[0] == 'd'
          && field[1] == 'a'
          && field[2] == 't'
          && field[3] == 'a') {
        startDataLine(); // "data" with no colon: an empty data line
      }
    }
    state = State.FIELD;
    fieldLen = 0;
    fieldOverflow = false;
  }

  private void startDataLine() {
    if (hasData) appendData((byte) '\n');
    hasData = true;
  }

  private void appendData(byte c) {
    if (dataLen == data.length) {
      if (dataLen >= maxEventBytes) {
        throw new HttpParseException("SSE event larger than " + maxEventBytes + " bytes", false);
      }
      data = Arrays.copyOf(data, Math.min(maxEventBytes, dataLen * 2));
    }
    data[dataLen++] = c;
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * The index of the first CR or LF in b[from, to), or {@code to}. Eight bytes at a time (a word
   * holds a CR or LF when XOR-ing it with that byte repeated leaves a zero byte): a bulk stream's
   * frames are 64 KiB lines, and a byte-at-a-time scan capped the client near 150 MB/s.
   */
  /**
   * Whether any of the word's eight bytes is CR or LF: XOR with the byte repeated turns it into a
   * zero byte, and (v - 0x01..) & ~v & 0x80.. is non-zero exactly when v holds a zero byte. The
   * mask applies to both halves: without it on the LF half, any byte whose XOR with LF left a low
   * bit set (0x8A, say) counted as a line end, and the scan fell back to one byte at a time for the
   * rest of the line.
   */
  static boolean holdsCrOrLf(long w) {
    long lf = w ^ (ONES * '\n');
    long cr = w ^ (ONES * '\r');
    return ((((lf - ONES) & ~lf) | ((cr - ONES) & ~cr)) & HIGHS) != 0;
  }

  static int lineEnd(byte[] b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      if (holdsCrOrLf((long) LONGS.get(b, i))) break;
    }
    for (; i < to; i++) {
      if (b[i] == '\n' || b[i] == '\r') return i;
    }
    return to;
  }

  private void appendData(byte[] b, int off, int n) {
    if (dataLen + n > data.length) {
      if (dataLen + n > maxEventBytes) {
        throw new HttpParseException("SSE event larger than " + maxEventBytes + " bytes", false);
      }
      data =
          Arrays.copyOf(
              data, (int) Math.min(maxEventBytes, Math.max((long) dataLen + n, 2L * data.length)));
    }
    System.arraycopy(b, off, data, dataLen, n);
    dataLen += n;
  }

  private void dispatch() {
    if (hasData) {
      listener.onEvent(data, dataLen);
    }
    hasData = false;
    dataLen = 0;
  }
}
