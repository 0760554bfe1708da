package flushlab.coding;

import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * gzip (RFC 1952) and deflate (RFC 9110's zlib stream, or the raw deflate some servers send) as the
 * bytes arrive, on the JDK's {@link Inflater}. The gzip header and trailer are parsed by hand
 * because the JDK's GZIPInputStream pulls from a stream and would block or buffer; here every byte
 * a read brings is inflated at once and handed on, so a frame completes in the read whose wire
 * bytes released it. Concatenated gzip members are read one after another. One output buffer per
 * stream, reused for every read.
 */
final class InflatingDecoder implements BodyDecoder {
  private static final int FTEXT_MASK = 0xE0; // reserved flag bits must be zero
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;

  private enum State {
    HEADER,
    EXTRA_LENGTH,
    EXTRA,
    NAME,
    COMMENT,
    HEADER_CRC,
    ZLIB_OR_RAW,
    BODY,
    TRAILER,
    DONE
  }

  private final boolean gzip;
  private Inflater inflater;
  private final byte[] out = new byte[64 * 1024];
  private final CRC32 crc = new CRC32();
  private State state;
  private final byte[] header = new byte[10];
  private int filled;
  private int flags;
  private int skip;
  private final byte[] trailer = new byte[8];
  private long memberBytes;
  private long decoded;
  private int firstByte = -1;

  InflatingDecoder(boolean gzip) {
    this.gzip = gzip;
    this.state = gzip ? State.HEADER : State.ZLIB_OR_RAW;
  }

  @Override
  public long decodedBytes() {
    return decoded;
  }

  @Override
  public void feed(byte[] b, int off, int len, ByteSink sink) throws Corrupt {
    int end = off + len;
    int i = off;
    while (i < end) {
      switch (state) {
        case HEADER -> {
          header[filled++] = b[i++];
          if (filled == header.length) headerRead();
        }
        case EXTRA_LENGTH -> {
          skip |= (b[i++] & 0xff) << (8 * filled++);
          if (filled == 2) {
            filled = 0;
            state = State.EXTRA;
            if (skip == 0) afterExtra();
          }
        }
        case EXTRA -> {
          int n = Math.min(skip, end - i);
          i += n;
          skip -= n;
          if (skip == 0) afterExtra();
        }
        case NAME, COMMENT -> {
          if (b[i++] == 0) {
            state =
                state == State.NAME && (flags & FCOMMENT) != 0 ? State.COMMENT : State.HEADER_CRC;
            if (state == State.HEADER_CRC && (flags & FHCRC) == 0) startBody(true);
          }
        }
        case HEADER_CRC -> {
          i++;
          if (++filled == 2) startBody(true);
        }
        case ZLIB_OR_RAW -> {
          // zlib: CM 8 in the low nibble and the two header bytes a multiple of 31; anything else
          // is raw deflate
          if (firstByte < 0) {
            firstByte = b[i++] & 0xff;
            continue;
          }
          int second = b[i] & 0xff;
          boolean zlib = (firstByte & 0x0f) == 8 && ((firstByte << 8) | second) % 31 == 0;
          inflater = new Inflater(!zlib);
          inflater.setInput(new byte[] {(byte) firstByte}); // the byte held back, once per stream
          inflate(sink);
          state = State.BODY;
        }
        case BODY -> i = inflate(b, i, end, sink);
        case TRAILER -> {
          trailer[filled++] = b[i++];
          if (filled == trailer.length) trailerRead();
        }
        case DONE -> {
          if (!gzip) throw new Corrupt("bytes after the end of the deflate stream");
          state = State.HEADER; // another gzip member
          filled = 0;
        }
        default -> throw new IllegalStateException(state.name());
      }
    }
  }

  private void headerRead() throws Corrupt {
    if ((header[0] & 0xff) != 0x1f || (header[1] & 0xff) != 0x8b) {
      throw new Corrupt(
          "not a gzip stream (it starts "
              + String.format("%02x %02x", header[0] & 0xff, header[1] & 0xff)
              + ", not 1f 8b)");
    }
    if (header[2] != 8)
      throw new Corrupt("gzip compression method " + header[2] + " (only 8, deflate, exists)");
    flags = header[3] & 0xff;
    if ((flags & FTEXT_MASK) != 0) throw new Corrupt("gzip header with reserved flags set");
    filled = 0;
    skip = 0;
    if ((flags & FEXTRA) != 0) {
      state = State.EXTRA_LENGTH;
    } else {
      afterExtra();
    }
  }

  private void afterExtra() {
    filled = 0;
    if ((flags & FNAME) != 0) {
      state = State.NAME;
    } else if ((flags & FCOMMENT) != 0) {
      state = State.COMMENT;
    } else if ((flags & FHCRC) != 0) {
      state = State.HEADER_CRC;
    } else {
      startBody(true);
    }
  }

  private void startBody(boolean raw) {
    if (inflater == null) {
      inflater = new Inflater(raw);
    } else {
      inflater.reset();
    }
    crc.reset();
    memberBytes = 0;
    filled = 0;
    state = State.BODY;
  }

  /**
   * Inflates b[i, end) and hands on what it releases; returns where the compressed member ended, or
   * end.
   */
  private int inflate(byte[] b, int i, int end, ByteSink sink) throws Corrupt {
    inflater.setInput(b, i, end - i);
    inflate(sink);
    if (state == State.BODY) return end;
    return end - inflater.getRemaining();
  }

  private void inflate(ByteSink sink) throws Corrupt {
    try {
      while (true) {
        int n = inflater.inflate(out);
        if (n > 0) {
          if (gzip) crc.update(out, 0, n);
          memberBytes += n;
          decoded += n;
          sink.accept(out, 0, n);
        }
        if (inflater.finished()) {
          filled = 0;
          state = gzip ? State.TRAILER : State.DONE;
          return;
        }
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) return;
      }
    } catch (DataFormatException e) {
      throw new Corrupt(
          "the " + (gzip ? "gzip" : "deflate") + " data is corrupt (" + e.getMessage() + ")");
    }
  }

  private void trailerRead() throws Corrupt {
    long wantCrc = le32(trailer, 0);
    long wantSize = le32(trailer, 4);
    if (wantCrc != crc.getValue())
      throw new Corrupt(
          "the gzip trailer's CRC does not match the data (the body was altered or mixed)");
    if (wantSize != (memberBytes & 0xffffffffL))
      throw new Corrupt("the gzip trailer's length does not match the data");
    state = State.DONE;
  }

  private static long le32(byte[] b, int at) {
    return (b[at] & 0xffL)
        | (b[at + 1] & 0xffL) << 8
        | (b[at + 2] & 0xffL) << 16
        | (b[at + 3] & 0xffL) << 24;
  }

  @Override
  public void finish() throws Corrupt {
    boolean atMemberStart = gzip && state == State.HEADER && filled == 0 && inflater != null;
    if (state != State.DONE && !atMemberStart) {
      throw new Corrupt(
          "the "
              + (gzip ? "gzip" : "deflate")
              + " body ended before its compressed stream did (truncated)");
    }
    close();
  }

  @Override
  public void close() {
    if (inflater != null) inflater.end();
  }
}
