package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.HostStalls;
import flushlab.LabTest;
import flushlab.ScriptedServer;
import flushlab.ScriptedServer.Step;
import flushlab.http.H2;
import flushlab.stream.StreamSpec;
import flushlab.tls.ServerTls;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 end to end on real sockets: the metered client against the lab's own emitter over h2c
 * (prior knowledge) and h2 (TLS, ALPN) reads paced frames one per read, whole, as over HTTP/1.1;
 * flow control carries a bulk body; a header block in CONTINUATIONs, DATA split inside frame
 * headers and a RST_STREAM from the server are read as such; a RST_STREAM from the client stops the
 * emitter's stream and leaves the connection serving the next.
 */
class Http2StreamTest extends LabTest {
  private static final String PACED = "frames=41&size=60&interval=20ms";

  private BatchResult read(String url, HttpVersion http, RequestPlan plan) throws Exception {
    return lab.measure(plan, ClientOptions.single().withHttp(http));
  }

  /** One stream of {@code frames} read from a scripted server, as this kind of HTTP client. */
  private BatchResult readScripted(ScriptedServer server, HttpVersion http, int frames)
      throws Exception {
    return read(
        null, http, RequestPlan.get("http://127.0.0.1:" + server.port() + "/sse?frames=" + frames));
  }

  /**
   * A paced read of {@link #PACED}: under the pacing guard and the meter, whose frames per read the
   * tests judge.
   */
  private BatchResult readPaced(HttpVersion http, RequestPlan plan) throws Exception {
    return lab.measurePaced(20_000_000L, plan, ClientOptions.single().withHttp(http));
  }

  @Test
  void pacedFramesArriveOnePerReadOverH2cAndH2AsOverHttp11() throws Exception {
    BatchResult h1 = lab.measure(lab.sseUrl(PACED));
    BatchResult h2c = readPaced(HttpVersion.H2C, RequestPlan.get(lab.sseUrl(PACED)));
    int tlsPort =
        lab.emitter.listenTls("127.0.0.1", 0, ServerTls.selfSigned()).await(10, TimeUnit.SECONDS);
    RequestPlan https =
        RequestPlan.get("https://127.0.0.1:" + tlsPort + "/sse?" + PACED)
            .withTls(ServerTls.selfSigned().pinnedByClients());
    BatchResult h2 = readPaced(HttpVersion.H2, https);
    BatchResult tls11 = lab.measure(https, ClientOptions.single());
    System.out.printf(
        "Http2StreamTest: frames per read HTTP/1.1 %.3f, h2c %.3f, TLS HTTP/1.1 %.3f, h2 %.3f; emit->recv p50 %.3f / %.3f / %.3f / %.3f ms%n",
        h1.framesPerRead(),
        h2c.framesPerRead(),
        tls11.framesPerRead(),
        h2.framesPerRead(),
        h1.emitToRecvMs().p50(),
        h2c.emitToRecvMs().p50(),
        tls11.emitToRecvMs().p50(),
        h2.emitToRecvMs().p50());
    for (BatchResult r : List.of(h2c, h2)) {
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(41);
      assertThat(r.lostFrames() + r.corruptFrames() + r.duplicateFrames() + r.reorderedFrames())
          .isZero();
      assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.05);
    }
    lab.assertEmitterOnTime(h2c, 20_000_000L);
  }

  /**
   * Left to itself (auto), a browser or curl offers h2 over TLS and speaks it when the server picks
   * it; the lab's bare request and the SDKs speak HTTP/1.1.
   */
  @Test
  void aBrowserSpeaksH2WhereAlpnOffersItAndTheSdksDoNot() throws Exception {
    int tlsPort =
        lab.emitter.listenTls("127.0.0.1", 0, ServerTls.selfSigned()).await(10, TimeUnit.SECONDS);
    RequestPlan https =
        RequestPlan.get("https://127.0.0.1:" + tlsPort + "/sse?frames=5&interval=5ms")
            .withTls(ServerTls.selfSigned().pinnedByClients());
    for (ClientProfile p : ClientProfile.values()) {
      BatchResult r = lab.measure(https.withProfile(p), ClientOptions.single());
      assertThat(r.errorCount()).as(p + ": " + r.oneLine()).isZero();
      assertThat(r.h2() != null).as("%s speaks h2", p).isEqualTo(p.offersH2OverTls());
    }
    assertThat(
            lab.measure(
                    RequestPlan.get(lab.sseUrl("frames=5")).withProfile(ClientProfile.BROWSER),
                    ClientOptions.single())
                .h2())
        .as("no browser speaks h2c")
        .isNull();
  }

  /**
   * h2c by Upgrade: the emitter answers 101 and the stream as HTTP/2's stream 1; a server that does
   * not switch is read as HTTP/1.1.
   */
  @Test
  void anUpgradeIsTakenWhereOfferedAndReadAsHttp11WhereNot() throws Exception {
    // paced, under the guard and the meter: its frames per read are judged (a fresh-clone suite
    // read
    // 41 frames in 39 reads, 1.051, with no stall figure; a run this host spoiled is measured once
    // more, and twice is a host stall, as the other paced reads here)
    BatchResult upgraded = readPaced(HttpVersion.H2C_UPGRADE, RequestPlan.get(lab.sseUrl(PACED)));
    assertThat(upgraded.errorCount()).as(upgraded.oneLine()).isZero();
    assertThat(upgraded.frames()).isEqualTo(41);
    assertThat(upgraded.framesPerRead()).isLessThanOrEqualTo(1.05);
    assertThat(upgraded.h2()).as("HTTP/2 was spoken after the 101").isNotNull();
    assertThat(upgraded.h2().serverSettings()).containsEntry("max_concurrent_streams", 128L);
    List<Step> plain =
        List.of(
            new Step(0, ScriptedServer::sseHead),
            new Step(5, () -> ScriptedServer.frames(60, 0, 1, 2)));
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, plain)) {
      BatchResult stayed = readScripted(server, HttpVersion.H2C_UPGRADE, 3);
      assertThat(stayed.errorCount()).as(stayed.oneLine()).isZero();
      assertThat(stayed.frames()).isEqualTo(3);
      assertThat(stayed.h2()).as("no 101: HTTP/1.1 it was").isNull();
    }
  }

  /**
   * Many streams on one connection share its flow-control window (65,535 bytes): behind a client
   * that reads every 200 ms, what the streams send between two reads beyond the window waits for
   * the WINDOW_UPDATE the next read sends, so frames wait a read longer than the same streams on
   * connections of their own. The emitter's audit counts none of that wait as its own lateness.
   * Frames of 120 B: the streams send about 150 kB per read against the 64 KiB a read frees, so the
   * backlog grows over the stream and most frames wait (with 60 B frames, about 80 kB a read, only
   * the few beyond the window waited, and beside two other classes, whose load staggered the
   * streams' starts, the p99 came out 279.7 ms against 200.7 apart).
   */
  @Test
  void streamsSharingOneConnectionStallOnItsWindowBehindASlowReader() throws Exception {
    String query = "frames=40&size=120&interval=10ms";
    ClientOptions slow =
        ClientOptions.single()
            .withRequests(60, 60)
            .withSlowReaderPauseNanos(200_000_000L)
            .withHttp(HttpVersion.H2C);
    long t0 = System.nanoTime();
    BatchResult shared =
        lab.measure(RequestPlan.get(lab.sseUrl(query)), slow.withStreamsPerConnection(60));
    BatchResult apart = lab.measure(RequestPlan.get(lab.sseUrl(query)), slow);
    System.out.printf(
        "Http2StreamTest: 60 streams x 40 frames, reading every 200 ms: emit->recv p50 %.1f ms, p99 %.1f ms on one "
            + "connection (%d WINDOW_UPDATEs sent); p50 %.1f ms, p99 %.1f ms on 60 connections%n",
        shared.emitToRecvMs().p50(),
        shared.emitToRecvMs().p99(),
        shared.h2().windowUpdatesSent(),
        apart.emitToRecvMs().p50(),
        apart.emitToRecvMs().p99());
    for (BatchResult r : List.of(shared, apart)) {
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(60 * 40);
      assertThat(r.lostFrames()).isZero();
    }
    assertThat(shared.h2().streams()).isEqualTo(60);
    if (shared.emitToRecvMs().p99() <= 1.4 * apart.emitToRecvMs().p99()) {
      // under a CPU hog, p99 rose on 60 connections to 282 ms (a read is 200 ms): a host that stood
      // still is no result
      HostStalls.skipIfBusy(
          t0,
          System.nanoTime(),
          String.format(
              "p99 %.1f ms shared, %.1f ms apart",
              shared.emitToRecvMs().p99(), apart.emitToRecvMs().p99()));
    }
    assertThat(shared.emitToRecvMs().p99())
        .as("the shared window makes frames wait a read longer")
        .isGreaterThan(1.4 * apart.emitToRecvMs().p99());
    // the wait for the window is the path's: the emitter's own lateness stays far below it (it
    // would be ~200 ms counted as its own)
    long latest = 0;
    for (long id : shared.streamIds())
      latest = Math.max(latest, lab.auditOf(id).latenessMaxNanos());
    System.out.printf(
        "Http2StreamTest: the emitter's own lateness at most %.1f ms%n", latest / 1e6);
    assertThat(latest / 1e6).isLessThan(0.25 * shared.emitToRecvMs().p99());
  }

  /**
   * The window the client advertises is the one the emitter meets: 600 B every 10 ms read every 200
   * ms is 12 kB a read, three times a 4 KiB window, so the emitter waits for the window (its audit
   * counts each wait, and the stream takes about three times as long: a frame's time is stamped
   * when it leaves, so the wait shows in the stream's length, not in emit->recv), and never behind
   * a 1 MiB one (the kernel's buffers hold 12 kB either way). A browser advertises Chromium's
   * windows, as captured from it; the lab's bare client the protocol's.
   */
  @Test
  void theWindowTheClientAdvertisesIsTheOneTheEmitterMeets() throws Exception {
    String query = "frames=40&size=600&interval=10ms";
    ClientOptions slow =
        ClientOptions.single().withSlowReaderPauseNanos(200_000_000L).withHttp(HttpVersion.H2C);
    long t0 = System.nanoTime();
    BatchResult small = lab.measure(RequestPlan.get(lab.sseUrl(query)), slow.withH2Window(4096));
    long t1 = System.nanoTime();
    BatchResult large = lab.measure(RequestPlan.get(lab.sseUrl(query)), slow.withH2Window(1 << 20));
    long t2 = System.nanoTime();
    int smallWaits = lab.auditOf(small.streamIds().get(0)).backpressureWaits();
    int largeWaits = lab.auditOf(large.streamIds().get(0)).backpressureWaits();
    System.out.printf(
        "Http2StreamTest: 600 B every 10 ms read every 200 ms: %.0f ms and %d waits for the window behind 4 KiB, "
            + "%.0f ms and %d behind 1 MiB%n",
        (t1 - t0) / 1e6, smallWaits, (t2 - t1) / 1e6, largeWaits);
    for (BatchResult r : List.of(small, large)) {
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(40);
    }
    assertThat(small.h2().clientInitialWindow()).isEqualTo(4096);
    assertThat(largeWaits).isZero();
    assertThat(smallWaits).isGreaterThanOrEqualTo(3);
    assertThat(t1 - t0).as("the small window stretches the stream").isGreaterThan(2 * (t2 - t1));
    BatchResult browser =
        lab.measure(
            RequestPlan.get(lab.sseUrl("frames=3")).withProfile(ClientProfile.BROWSER),
            ClientOptions.single().withHttp(HttpVersion.H2C));
    assertThat(browser.h2().clientInitialWindow()).isEqualTo(6_291_456);
    assertThat(browser.h2().clientConnectionWindow()).isEqualTo(15_728_640);
    assertThat(
            lab.measure(
                    RequestPlan.get(lab.sseUrl("frames=3")),
                    ClientOptions.single().withHttp(HttpVersion.H2C))
                .h2()
                .clientConnectionWindow())
        .isEqualTo(65_535);
  }

  @Test
  void severalStreamsOnOneConnectionEachReadOnePerRead() throws Exception {
    BatchResult r =
        lab.measure(
            RequestPlan.get(lab.sseUrl("frames=30&size=60&interval=10ms")),
            ClientOptions.single()
                .withRequests(20, 20)
                .withHttp(HttpVersion.H2C)
                .withStreamsPerConnection(20));
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.frames()).isEqualTo(600);
    assertThat(r.lostFrames()).isZero();
    assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.2);
    assertThat(r.h2().streams()).isEqualTo(20);
  }

  @Test
  void aBulkBodyFlowsWithinTheWindowsWholeAndInOrder() throws Exception {
    BatchResult r =
        read(
            null,
            HttpVersion.H2C,
            RequestPlan.get(lab.sseUrl("total=8MiB&size=20KiB&interval=0ms")));
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.frames()).isEqualTo((8 << 20) / (20 << 10) + 1);
    assertThat(r.lostFrames() + r.corruptFrames() + r.reorderedFrames()).isZero();
    assertThat(r.decodedBodyBytes()).isEqualTo((long) r.frames() * 20 * 1024);
    // what the connection recorded: the emitter's SETTINGS, and the window given back as the client
    // read (stream and connection)
    H2Summary h2 = r.h2();
    assertThat(h2.serverSettings()).containsEntry("max_concurrent_streams", 128L);
    assertThat(h2.dataBytes()).isEqualTo(r.bodyBytes());
    assertThat(h2.windowUpdatesSent())
        .as("a bulk body 128 times the window needs window updates")
        .isGreaterThan(128);
    assertThat(lab.measure(lab.sseUrl("frames=3")).h2()).as("over HTTP/1.1").isNull();
  }

  /**
   * Compression over h2 as over HTTP/1.1: flushed per event, each event its own read; never
   * flushed, the stream at its end.
   */
  @Test
  void compressedStreamsAreServedOverH2cAsOverHttp11() throws Exception {
    ClientOptions browser = ClientOptions.single().withHttp(HttpVersion.H2C);
    for (String coding : List.of("gzip", "br", "zstd")) {
      RequestPlan plan =
          RequestPlan.get(lab.sseUrl("frames=30&size=60&interval=10ms&encoding=" + coding))
              .withProfile(ClientProfile.BROWSER);
      long t0 = System.nanoTime();
      BatchResult r = lab.measure(plan, browser);
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(30);
      assertThat(r.h2()).isNotNull();
      assertThat(r.dominantCoding().text()).isEqualTo(coding);
      // two or three frames read together behind a 40 ms gap are this host's when it stood still
      // through the stream (s232, s241: 1.11 frames a read, the largest gap 40.3 and 42.3 ms)
      if (r.framesPerRead() > 1.1) HostStalls.skipIfBusy(t0, System.nanoTime(), r.oneLine());
      assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.1);
    }
    RequestPlan held =
        RequestPlan.get(lab.sseUrl("frames=30&size=60&interval=10ms&encoding=gzip&flush=none"))
            .withProfile(ClientProfile.BROWSER);
    BatchResult r = lab.measure(held, browser);
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.framesPerRead())
        .as("an encoder never flushed holds the small stream to its end: " + r.oneLine())
        .isGreaterThan(10.0);
  }

  @Test
  void aChatStreamWithARequestBodyIsServedOverH2c() throws Exception {
    RequestPlan chat = RequestPlan.chat("127.0.0.1", lab.emitter.port(), 30, 0, 5);
    BatchResult r = read(null, HttpVersion.H2C, chat);
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.frames()).isEqualTo(30);
    assertThat(r.lostFrames()).isZero();
  }

  /**
   * An h2 server written out byte by byte: SETTINGS, a header block in HEADERS and CONTINUATION,
   * DATA in pieces cut inside frame headers.
   */
  @Test
  void continuationsAndDataSplitInsideFrameHeadersAreReadAsTheyCame() throws Exception {
    byte[] block = headerBlock(1);
    byte[] wire =
        concat(
            H2.settings(H2.SETTINGS_MAX_CONCURRENT_STREAMS, 10),
            H2.frame(H2.HEADERS, 0, 1, Arrays.copyOfRange(block, 0, 5)),
            H2.frame(H2.CONTINUATION, 0, 1, Arrays.copyOfRange(block, 5, 9)),
            H2.frame(
                H2.CONTINUATION,
                H2.FLAG_END_HEADERS,
                1,
                Arrays.copyOfRange(block, 9, block.length)));
    List<Step> steps = new ArrayList<>();
    steps.add(new Step(0, () -> wire));
    byte[] data = new byte[0];
    for (int i = 0; i < 6; i++)
      data =
          concat(
              data,
              H2.frame(H2.DATA, i == 5 ? H2.FLAG_END_STREAM : 0, 1, ScriptedServer.frames(60, i)));
    // cut at every third byte: pieces end inside frame headers and inside payloads
    for (int off = 0; off < data.length; off += 3) {
      byte[] piece = Arrays.copyOfRange(data, off, Math.min(data.length, off + 3));
      steps.add(new Step(off % 69 == 0 ? 5 : 0, () -> piece));
    }
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = readScripted(server, HttpVersion.H2C, 6);
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(6);
      assertThat(r.lostFrames() + r.corruptFrames()).isZero();
    }
  }

  /**
   * A read that brought the stream nothing (a PING alone, between its DATA) is no read of the
   * stream: no HTTP/2 library hands one to the application. One stream on a connection is read as a
   * map of one, by the same path as several; its reads are its HEADERS and its DATA.
   */
  @Test
  void aReadOfControlFramesAloneIsNoReadOfTheStream() throws Exception {
    byte[] block = headerBlock(1);
    List<Step> steps = new ArrayList<>();
    steps.add(
        new Step(
            0, () -> concat(H2.settings(), H2.frame(H2.HEADERS, H2.FLAG_END_HEADERS, 1, block))));
    for (int i = 0; i < 6; i++) {
      int frame = i;
      // 30 ms apart: a PING read on its own (a stall that merged it would only hide a failure)
      steps.add(
          new Step(
              30,
              () ->
                  H2.frame(
                      H2.DATA,
                      frame == 5 ? H2.FLAG_END_STREAM : 0,
                      1,
                      ScriptedServer.frames(60, frame))));
      if (i == 2) steps.add(new Step(30, () -> H2.frame(H2.PING, 0, 0, new byte[8])));
    }
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = readScripted(server, HttpVersion.H2C, 6);
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(6);
      assertThat(r.reads())
          .as("the HEADERS read and six of DATA, the PING's not")
          .isLessThanOrEqualTo(7);
    }
  }

  @Test
  void aServerResetIsAnErrorOfTheStreamNeverOk() throws Exception {
    byte[] block = headerBlock(1);
    List<Step> steps =
        List.of(
            new Step(
                0,
                () -> concat(H2.settings(), H2.frame(H2.HEADERS, H2.FLAG_END_HEADERS, 1, block))),
            new Step(5, () -> H2.frame(H2.DATA, 0, 1, ScriptedServer.frames(60, 0, 1))),
            new Step(5, () -> H2.rstStream(1, H2.CANCEL)));
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = readScripted(server, HttpVersion.H2C, 10);
      assertThat(r.streamsOk()).as(r.oneLine()).isZero();
      assertThat(r.errors().get(0)).containsEntry("kind", "reset");
      assertThat((String) r.errors().get(0).get("example")).contains("RST_STREAM CANCEL");
    }
  }

  /**
   * A client that resets its stream: the emitter stops it (its audit: incomplete) and answers the
   * next stream on the same connection.
   */
  @Test
  void aClientResetStopsTheStreamAndTheConnectionServesTheNext() throws Exception {
    DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
    try (Socket s = new Socket("127.0.0.1", lab.emitter.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      InputStream in = s.getInputStream();
      out.write(
          concat(H2.PREFACE, H2.settings(), request(encoder, 1, "/sse?frames=1000&interval=10ms")));
      readUntilData(in, 1);
      out.write(H2.rstStream(1, H2.CANCEL));
      out.write(request(encoder, 3, "/healthz"));
      byte[] got = readUntilEndOf(in, 3);
      assertThat(new String(got, StandardCharsets.ISO_8859_1)).contains("ok");
    }
  }

  /**
   * The per-read path over HTTP/2 stays lean: a read of one DATA frame, turned into the stream's
   * bytes, metered, and answered with its WINDOW_UPDATEs, allocates about what an HTTP/1.1 read of
   * the same event in a chunk does (the session's buffers are the connection's, reused read after
   * read).
   */
  @Test
  void anH2ReadAllocatesAboutWhatAPlainReadDoes() throws Exception {
    int frames = 4000;
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long[] perRead = new long[2];
    for (int pass = 0; pass < 2; pass++) {
      for (boolean h2 : new boolean[] {false, true}) {
        List<byte[]> reads = new ArrayList<>();
        reads.add(
            h2
                ? concat(
                    H2.settings(H2.SETTINGS_MAX_CONCURRENT_STREAMS, 100),
                    H2.frame(H2.HEADERS, H2.FLAG_END_HEADERS, 1, headerBlock(1)))
                : "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < frames; i++) {
          byte[] event = ScriptedServer.frames(60, i);
          reads.add(
              h2
                  ? H2.frame(H2.DATA, 0, 1, event)
                  : concat(
                      "3c\r\n".getBytes(StandardCharsets.US_ASCII),
                      event,
                      "\r\n".getBytes(StandardCharsets.US_ASCII)));
        }
        H2ClientSession session = new H2ClientSession(false, 65_535, 65_535, false);
        session.request(RequestPlan.get("http://127.0.0.1:1/sse?frames=" + frames), true);
        StreamMeter m = new StreamMeter(frames, 65536, Set.of(), StreamSpec.DEFAULT_CONTENT_TYPE);
        int half = reads.size() / 2;
        long before = 0;
        for (int i = 0; i < reads.size(); i++) {
          if (i == half) before = threads.getCurrentThreadAllocatedBytes();
          byte[] r = reads.get(i);
          if (h2) {
            session.read(r, 0, r.length);
            H2StreamOut o = session.out(session.lastStreamId());
            m.onRead(System.nanoTime(), o.h1, 0, o.h1Len, false, r.length);
            session.repliesSent();
          } else {
            m.onRead(System.nanoTime(), r, 0, r.length);
          }
        }
        assertThat(m.framesSoFar()).isEqualTo(frames);
        perRead[h2 ? 1 : 0] =
            (threads.getCurrentThreadAllocatedBytes() - before) / (reads.size() - half);
      }
    }
    System.out.printf(
        "Http2StreamTest: %d B per chunked HTTP/1.1 read, %d B per HTTP/2 read%n",
        perRead[0], perRead[1]);
    assertThat(perRead[1])
        .as("bytes an HTTP/2 read allocates, against a chunked HTTP/1.1 read's %d", perRead[0])
        .isLessThanOrEqualTo(perRead[0] + 16);
  }

  private static byte[] request(DefaultHttp2HeadersEncoder encoder, int stream, String path)
      throws Exception {
    ByteBuf b = Unpooled.buffer();
    encoder.encodeHeaders(
        stream,
        new DefaultHttp2Headers().method("GET").scheme("http").authority("127.0.0.1").path(path),
        b);
    byte[] block = new byte[b.readableBytes()];
    b.readBytes(block);
    b.release();
    return H2.frame(H2.HEADERS, H2.FLAG_END_HEADERS | H2.FLAG_END_STREAM, stream, block);
  }

  /** Reads frames until one DATA frame of {@code stream} arrived. */
  private static void readUntilData(InputStream in, int stream) throws Exception {
    while (true) {
      byte[] h = in.readNBytes(9);
      int len = ((h[0] & 0xff) << 16) | ((h[1] & 0xff) << 8) | (h[2] & 0xff);
      in.readNBytes(len);
      int id = ((h[5] & 0x7f) << 24) | ((h[6] & 0xff) << 16) | ((h[7] & 0xff) << 8) | (h[8] & 0xff);
      if (h[3] == H2.DATA && id == stream) return;
    }
  }

  /** Reads frames until {@code stream} ends; returns its DATA (frames of other streams skipped). */
  private static byte[] readUntilEndOf(InputStream in, int stream) throws Exception {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    while (true) {
      byte[] h = in.readNBytes(9);
      if (h.length < 9)
        throw new AssertionError("the connection closed before stream " + stream + " ended");
      int len = ((h[0] & 0xff) << 16) | ((h[1] & 0xff) << 8) | (h[2] & 0xff);
      byte[] p = in.readNBytes(len);
      int id = ((h[5] & 0x7f) << 24) | ((h[6] & 0xff) << 16) | ((h[7] & 0xff) << 8) | (h[8] & 0xff);
      if (id != stream) continue;
      if (h[3] == H2.DATA) data.write(p, 0, p.length);
      if ((h[3] == H2.DATA || h[3] == H2.HEADERS) && (h[4] & H2.FLAG_END_STREAM) != 0)
        return data.toByteArray();
    }
  }

  /**
   * ":status 200, content-type text/event-stream" and padding headers, HPACK-encoded for one
   * connection.
   */
  private static byte[] headerBlock(int stream) throws Exception {
    ByteBuf b = Unpooled.buffer();
    new DefaultHttp2HeadersEncoder()
        .encodeHeaders(
            stream,
            new DefaultHttp2Headers()
                .status("200")
                .add("content-type", "text/event-stream")
                .add("x-one", "aaaaaaaaaaaaaaaaaaaa")
                .add("x-two", "bbbbbbbbbbbbbbbbbbbb"),
            b);
    byte[] block = new byte[b.readableBytes()];
    b.readBytes(block);
    b.release();
    return block;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) out.writeBytes(p);
    return out.toByteArray();
  }
}
