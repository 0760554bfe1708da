package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.LabTest;
import flushlab.ScriptedServer;
import flushlab.ScriptedServer.Step;
import flushlab.coding.BodyDecoder;
import flushlab.coding.ContentCoding;
import flushlab.coding.FlushPolicy;
import flushlab.coding.StreamCompressor;
import flushlab.http.Header;
import flushlab.stream.StreamSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A body in a content coding: the client decodes what it asked for, as it arrives, so frames per
 * read stay a property of the socket read; a coding it did not ask for, one it cannot decode, a
 * corrupt or cut compressed stream, and a response without a single frame are each an error of that
 * stream, never a measurement.
 */
class ContentCodingTest extends LabTest {
  private static final int FRAMES = 20;
  private static final int SIZE = 60;

  // ---- the decoder on its own

  @Test
  void gzipDecodesWhateverWayTheBytesAreSplit() throws Exception {
    byte[] plain = ScriptedServer.frames(SIZE, 0, 1, 2, 3, 4, 5, 6, 7);
    byte[] gz = gzip(plain);
    for (int piece : new int[] {1, 2, 3, 7, 10, gz.length}) {
      BodyDecoder d = BodyDecoder.of(ContentCoding.GZIP);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (int i = 0; i < gz.length; i += piece)
        d.feed(gz, i, Math.min(piece, gz.length - i), out::write);
      d.finish();
      assertThat(out.toByteArray()).as("split every %d bytes", piece).isEqualTo(plain);
      assertThat(d.decodedBytes()).isEqualTo(plain.length);
    }
  }

  @Test
  void gzipMembersOneAfterAnotherAndAHeaderWithANameAreRead() throws Exception {
    byte[] a = "data: one\n\n".getBytes(StandardCharsets.US_ASCII);
    byte[] b = "data: two\n\n".getBytes(StandardCharsets.US_ASCII);
    byte[] named = gzip(b);
    // set FNAME and insert "x.txt\0" after the 10-byte header
    byte[] withName = new byte[named.length + 6];
    System.arraycopy(named, 0, withName, 0, 10);
    withName[3] = 8;
    System.arraycopy("x.txt\0".getBytes(StandardCharsets.US_ASCII), 0, withName, 10, 6);
    System.arraycopy(named, 10, withName, 16, named.length - 10);
    byte[] both = concat(gzip(a), withName);
    BodyDecoder d = BodyDecoder.of(ContentCoding.GZIP);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < both.length; i++) d.feed(both, i, 1, out::write);
    d.finish();
    assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("data: one\n\ndata: two\n\n");
  }

  @Test
  void deflateIsReadAsZlibOrRaw() throws Exception {
    byte[] plain = ScriptedServer.frames(SIZE, 0, 1, 2);
    for (boolean raw : new boolean[] {false, true}) {
      byte[] z = deflate(plain, raw);
      BodyDecoder d = BodyDecoder.of(ContentCoding.DEFLATE);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (int i = 0; i < z.length; i++) d.feed(z, i, 1, out::write);
      d.finish();
      assertThat(out.toByteArray()).as(raw ? "raw deflate" : "zlib").isEqualTo(plain);
    }
  }

  @Test
  void aCorruptOrCutOrAlteredGzipBodyIsRefused() throws Exception {
    byte[] gz = gzip(ScriptedServer.frames(SIZE, 0, 1, 2, 3));
    byte[] notGzip = "hello".getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(
            () ->
                BodyDecoder.of(ContentCoding.GZIP)
                    .feed(concat(notGzip, new byte[10]), 0, 15, (b, o, l) -> {}))
        .hasMessageContaining("not a gzip stream");
    BodyDecoder cut = BodyDecoder.of(ContentCoding.GZIP);
    cut.feed(gz, 0, gz.length - 12, (b, o, l) -> {});
    assertThatThrownBy(cut::finish).hasMessageContaining("truncated");
    byte[] altered = gz.clone();
    altered[altered.length - 8] ^= 1; // the trailer's CRC
    assertThatThrownBy(
            () ->
                BodyDecoder.of(ContentCoding.GZIP)
                    .feed(altered, 0, altered.length, (b, o, l) -> {}))
        .hasMessageContaining("CRC");
    byte[] garbage = gz.clone();
    Arrays.fill(garbage, 12, 20, (byte) 0xff);
    assertThatThrownBy(
            () ->
                BodyDecoder.of(ContentCoding.GZIP)
                    .feed(garbage, 0, garbage.length, (b, o, l) -> {}))
        .hasMessageContaining("corrupt");
  }

  @Test
  void acceptEncodingIsReadAsRfc9110Says() {
    assertThat(ContentCoding.accepted("gzip, deflate, br, zstd"))
        .containsExactlyInAnyOrder(ContentCoding.values());
    assertThat(ContentCoding.accepted("gzip;q=0, deflate;q=0.5"))
        .containsExactly(ContentCoding.DEFLATE);
    assertThat(ContentCoding.accepted("*")).containsExactlyInAnyOrder(ContentCoding.values());
    assertThat(ContentCoding.accepted("identity")).isEmpty();
    assertThat(ContentCoding.accepted(null)).isEmpty();
    assertThat(ContentCoding.named("x-gzip")).isEqualTo(ContentCoding.GZIP);
    assertThat(
            RequestPlan.get("http://127.0.0.1:1/sse")
                .withHeaders(List.of(new Header("accept-encoding", "gzip")))
                .acceptedCodings())
        .isEqualTo(EnumSet.of(ContentCoding.GZIP));
  }

  // ---- through the metered client, from a server that compresses

  @Test
  void aGzipStreamFlushedPerEventReadsOneFramePerRead() throws Exception {
    BatchResult r = wholeGzipStream(true, "gzip");
    assertThat(r.framesPerRead()).as("each event was flushed on its own").isLessThanOrEqualTo(1.1);
    assertThat(r.decodedBodyBytes())
        .as("the body as the SSE parser saw it")
        .isEqualTo((long) FRAMES * SIZE);
  }

  @Test
  void aGzipStreamHeldToItsEndReadsAsOneRelease() throws Exception {
    BatchResult r = wholeGzipStream(false, "gzip, deflate");
    assertThat(r.framesPerRead())
        .as("the encoder released everything at its end")
        .isEqualTo((double) FRAMES);
  }

  /**
   * A gzip stream (flushed per event, or not at all) read by a client accepting {@code accept}:
   * every frame, none lost.
   */
  private BatchResult wholeGzipStream(boolean flushEach, String accept) throws Exception {
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, gzipSteps(flushEach, "gzip"))) {
      BatchResult r = measure(server, accept);
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(FRAMES);
      assertThat(r.lostFrames() + r.corruptFrames()).isZero();
      return r;
    }
  }

  @Test
  void aCodingTheRequestDidNotAcceptIsAnErrorNotAStreamWithoutFrames() throws Exception {
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, gzipSteps(true, "gzip"))) {
      BatchResult r = measure(server, null);
      assertThat(r.streamsOk()).isZero();
      assertThat(r.errors().get(0)).containsEntry("kind", "encoding_not_asked");
      assertThat((String) r.errors().get(0).get("example"))
          .contains("gzip")
          .contains("no Accept-Encoding");
    }
  }

  @Test
  void anUnknownCodingOrBytesThatAreNotWhatTheHeadSaysAreAnError() throws Exception {
    // snappy is no HTTP content coding the client knows; gzip bytes labelled br or zstd cannot be
    // decoded as those
    for (String[] c :
        new String[][] {
          {"snappy", "encoding_unknown"}, {"br", "encoding_corrupt"}, {"zstd", "encoding_corrupt"}
        }) {
      try (ScriptedServer server = ScriptedServer.playing(lab.vertx, gzipSteps(true, c[0]))) {
        BatchResult r = measure(server, "gzip, br, zstd, snappy");
        assertThat(r.streamsOk()).as(c[0]).isZero();
        assertThat(r.errors().get(0)).as(c[0]).containsEntry("kind", c[1]);
      }
    }
  }

  @Test
  void aCorruptGzipBodyIsAnError() throws Exception {
    List<Step> steps = new ArrayList<>();
    steps.add(new Step(0, () -> head("gzip")));
    byte[] gz = gzip(ScriptedServer.frames(SIZE, 0, 1, 2));
    byte[] bad = gz.clone();
    Arrays.fill(bad, 12, 24, (byte) 0xff);
    steps.add(new Step(5, () -> bad));
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = measure(server, "gzip");
      assertThat(r.streamsOk()).isZero();
      assertThat(r.errors().get(0)).containsEntry("kind", "encoding_corrupt");
    }
  }

  @Test
  void aResponseWithoutASingleFrameIsAnErrorNotOk() throws Exception {
    List<Step> steps =
        List.of(
            new Step(0, ScriptedServer::sseHead),
            new Step(5, () -> ": a comment, and no frame\n\n".getBytes(StandardCharsets.US_ASCII)));
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = lab.measure("http://127.0.0.1:" + server.port() + "/sse?frames=" + FRAMES);
      assertThat(r.streamsOk()).isZero();
      assertThat(r.errors().get(0)).containsEntry("kind", "no_frames");
      assertThat((String) r.errors().get(0).get("example"))
          .contains("of the " + FRAMES + " asked for");
      assertThat(r.oneLine()).doesNotContain("frames/read 0.00");
    }
  }

  // ---- the per-read path stays lean

  /**
   * A read that decodes: the meter on a gzip body flushed per frame allocates, per read, only what
   * a plain read does (the per-frame samples grow their arrays now and then); the inflater and its
   * output buffer are the stream's, made once. Measured on this thread with HotSpot's allocation
   * counter, as HotPathAllocationTest measures the emitter's loop.
   */
  @Test
  void aDecodingReadAllocatesAboutWhatAPlainReadDoes() throws Exception {
    int n = 4000;
    long plain = bytesPerRead(null, n);
    for (ContentCoding c : ContentCoding.values()) {
      long decoding = bytesPerRead(c, n);
      System.out.printf(
          "ContentCodingTest: %d B per plain read, %d B per %s-decoding read%n",
          plain, decoding, c.text());
      // brotli4j hands each pull's output as a new direct-buffer view (about 64 B); the others
      // allocate nothing per read
      long allowance = c == ContentCoding.BR ? 128 : 8;
      assertThat(decoding)
          .as("bytes a %s-decoding read allocates, against a plain read's %d", c.text(), plain)
          .isLessThanOrEqualTo(plain + allowance);
    }
  }

  /**
   * Bytes allocated per read by a meter fed the head, then one read per frame: plain (null), or
   * compressed and flushed per frame.
   */
  private static long bytesPerRead(ContentCoding coding, int frames) throws IOException {
    List<byte[]> reads = new ArrayList<>();
    reads.add(coding != null ? head(coding.text()) : ScriptedServer.sseHead());
    StreamCompressor compressor =
        coding == null ? null : new StreamCompressor(coding, FlushPolicy.EACH);
    for (int i = 0; i < frames; i++) {
      byte[] frame = ScriptedServer.frames(SIZE, i);
      if (compressor == null) {
        reads.add(frame);
        continue;
      }
      compressor.write(frame, 0, frame.length, true);
      reads.add(Arrays.copyOf(compressor.buffer(), compressor.ready()));
      compressor.sent();
    }
    if (compressor != null) compressor.close();
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Set<ContentCoding> accepted = coding != null ? EnumSet.of(coding) : Set.of();
    StreamMeter warm =
        new StreamMeter(
            frames, 65536, accepted, StreamSpec.DEFAULT_CONTENT_TYPE); // compiles the path
    for (byte[] r : reads) warm.onRead(System.nanoTime(), r, 0, r.length);
    StreamMeter m = new StreamMeter(frames, 65536, accepted, StreamSpec.DEFAULT_CONTENT_TYPE);
    int half = reads.size() / 2;
    for (int i = 0; i < half; i++)
      m.onRead(System.nanoTime(), reads.get(i), 0, reads.get(i).length);
    long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = half; i < reads.size(); i++)
      m.onRead(System.nanoTime(), reads.get(i), 0, reads.get(i).length);
    long used = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(m.framesSoFar()).isEqualTo(frames);
    return used / (reads.size() - half);
  }

  // ---- helpers

  private BatchResult measure(ScriptedServer server, String acceptEncoding) throws Exception {
    RequestPlan plan =
        RequestPlan.get("http://127.0.0.1:" + server.port() + "/sse?frames=" + FRAMES);
    if (acceptEncoding != null)
      plan = plan.withHeaders(List.of(new Header("Accept-Encoding", acceptEncoding)));
    return lab.measure(plan, ClientOptions.single());
  }

  private static byte[] head(String coding) {
    return ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: "
            + coding
            + "\r\nConnection: close\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * The head, then FRAMES frames 10 ms apart through one gzip stream: flushed after each event (as
   * a server that flushes per write), or held whole and written at the end (as an encoder that was
   * never flushed).
   */
  private static List<Step> gzipSteps(boolean flushEach, String coding) {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    GZIPOutputStream gz;
    try {
      gz = new GZIPOutputStream(wire, true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Step> steps = new ArrayList<>();
    steps.add(new Step(0, () -> head(coding)));
    for (int i = 0; i < FRAMES; i++) {
      long seq = i;
      boolean last = i == FRAMES - 1;
      Supplier<byte[]> next =
          () -> {
            try {
              gz.write(ScriptedServer.frames(SIZE, seq));
              if (last) {
                gz.close();
              } else if (flushEach) {
                gz.flush();
              }
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
            byte[] out = wire.toByteArray();
            wire.reset();
            return out;
          };
      steps.add(new Step(10, next));
    }
    return steps;
  }

  private static byte[] gzip(byte[] plain) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(plain);
    }
    return out.toByteArray();
  }

  private static byte[] deflate(byte[] plain, boolean raw) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, raw);
    d.setInput(plain);
    d.finish();
    byte[] buf = new byte[plain.length + 64];
    int n = d.deflate(buf);
    d.end();
    return Arrays.copyOf(buf, n);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
