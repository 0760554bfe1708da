package flushlab.coding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every content coding round-trips through the lab's encoder and decoder whatever way the wire
 * splits it; a flush makes everything written so far decodable at once (what a per-event flush
 * promises a reader); without one the encoder holds; a corrupt or cut br or zstd body is refused.
 */
class CodecTest {
  private static final byte[] EVENT =
      "data: 17 1700000000000000000 0badc0de abcdefghijklmnopqrstuvwxyz\n\n"
          .getBytes(StandardCharsets.US_ASCII);

  @Test
  void everyCodingRoundTripsWhateverWayTheBytesAreSplit() throws Exception {
    for (ContentCoding c : ContentCoding.values()) {
      byte[] plain = events(40);
      byte[] wire = encode(c, plain, FlushPolicy.EACH, EVENT.length);
      for (int piece : new int[] {1, 3, 64, wire.length}) {
        BodyDecoder d = BodyDecoder.of(c);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < wire.length; i += piece)
          d.feed(wire, i, Math.min(piece, wire.length - i), out::write);
        d.finish();
        assertThat(out.toByteArray()).as("%s split every %d bytes", c, piece).isEqualTo(plain);
        assertThat(d.decodedBytes()).isEqualTo(plain.length);
      }
    }
  }

  @Test
  void aFlushMakesEveryEventWrittenSoFarDecodableAndNoFlushHolds() throws Exception {
    for (ContentCoding c : ContentCoding.values()) {
      // per event: each event's output, fed alone, completes that event in the decoder
      StreamCompressor each = new StreamCompressor(c, FlushPolicy.EACH);
      BodyDecoder d = BodyDecoder.of(c);
      long[] decoded = {0};
      for (int i = 0; i < 10; i++) {
        each.write(EVENT, 0, EVENT.length, true);
        int n = each.ready();
        assertThat(n).as("%s releases output for event %d", c, i).isPositive();
        d.feed(each.buffer(), 0, n, (b, o, l) -> decoded[0] += l);
        each.sent();
        assertThat(decoded[0])
            .as("%s: decoded after event %d", c, i)
            .isEqualTo((long) (i + 1) * EVENT.length);
      }
      each.finish();
      d.feed(each.buffer(), 0, each.ready(), (b, o, l) -> decoded[0] += l);
      d.finish();
      // never flushed: ten small events do not all come out before the end
      StreamCompressor none = new StreamCompressor(c, FlushPolicy.NONE);
      BodyDecoder held = BodyDecoder.of(c);
      long[] early = {0};
      for (int i = 0; i < 10; i++) none.write(EVENT, 0, EVENT.length, true);
      held.feed(none.buffer(), 0, none.ready(), (b, o, l) -> early[0] += l);
      assertThat(early[0])
          .as("%s without a flush, before the end", c)
          .isLessThan(10L * EVENT.length);
      none.close();
      held.close();
    }
  }

  @Test
  void aBytesPolicyHoldsCompressedOutputUntilItReachesN() {
    StreamCompressor c = new StreamCompressor(ContentCoding.GZIP, FlushPolicy.bytes(300));
    List<Integer> sends = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      c.write(EVENT, 0, EVENT.length, true);
      if (c.ready() > 0) {
        sends.add(c.ready());
        c.sent();
      }
    }
    c.close();
    assertThat(sends).hasSizeGreaterThan(3).allMatch(n -> n >= 300 && n < 300 + 2 * EVENT.length);
  }

  /**
   * input:N: each release decodes to N uncompressed bytes or a little more (the write that reached
   * N), however well they compress.
   */
  @Test
  void anInputPolicyFlushesOnceNUncompressedBytesCameIn() throws Exception {
    for (ContentCoding coding : ContentCoding.values()) {
      StreamCompressor c = new StreamCompressor(coding, FlushPolicy.input(500));
      BodyDecoder d = BodyDecoder.of(coding);
      List<Long> decodedPerRelease = new ArrayList<>();
      long[] decoded = {0};
      for (int i = 0; i < 60; i++) {
        c.write(EVENT, 0, EVENT.length, true);
        if (c.ready() > 0) {
          long before = decoded[0];
          d.feed(c.buffer(), 0, c.ready(), (b, o, l) -> decoded[0] += l);
          c.sent();
          if (decoded[0] > before) decodedPerRelease.add(decoded[0] - before);
        }
      }
      c.close();
      d.close();
      // 60 events of EVENT.length bytes: a flush every ceil(500 / EVENT.length) events
      int perFlush = (500 + EVENT.length - 1) / EVENT.length;
      assertThat(decodedPerRelease)
          .as(coding.text())
          .hasSize(60 / perFlush)
          .allMatch(n -> n == (long) perFlush * EVENT.length);
    }
  }

  /**
   * next: an event's bytes leave as the next event is written, never between the pieces of one
   * event, the last at the end.
   */
  @Test
  void aNextPolicyReleasesEachEventWhenTheNextOneIsWritten() throws Exception {
    for (ContentCoding coding : ContentCoding.values()) {
      StreamCompressor c = new StreamCompressor(coding, FlushPolicy.NEXT);
      BodyDecoder d = BodyDecoder.of(coding);
      long[] decoded = {0};
      int half = EVENT.length / 2;
      for (int i = 0; i < 8; i++) {
        c.write(
            EVENT, 0, half,
            false); // one event in two pieces: the second piece does not flush the first
        c.write(EVENT, half, EVENT.length - half, true);
        d.feed(c.buffer(), 0, c.ready(), (b, o, l) -> decoded[0] += l);
        c.sent();
        assertThat(decoded[0])
            .as("%s: decoded once event %d was written", coding, i)
            .isEqualTo((long) i * EVENT.length);
      }
      c.finish();
      d.feed(c.buffer(), 0, c.ready(), (b, o, l) -> decoded[0] += l);
      d.finish();
      assertThat(decoded[0])
          .as("%s: the last event at the end", coding)
          .isEqualTo(8L * EVENT.length);
      c.close();
    }
  }

  /**
   * end: nothing is ready before the body ends, then the whole body, which decodes to every event;
   * output that reaches the cap leaves then, so what it holds is bounded.
   */
  @Test
  void anEndPolicyReleasesTheWholeBodyAtItsEndAndNoMoreThanItsCapBefore() throws Exception {
    for (ContentCoding coding : ContentCoding.values()) {
      StreamCompressor c = new StreamCompressor(coding, FlushPolicy.END);
      for (int i = 0; i < 50; i++) {
        c.write(EVENT, 0, EVENT.length, true);
        assertThat(c.ready()).as("%s: ready after event %d", coding, i).isZero();
      }
      c.finish();
      BodyDecoder d = BodyDecoder.of(coding);
      long[] decoded = {0};
      d.feed(c.buffer(), 0, c.ready(), (b, o, l) -> decoded[0] += l);
      d.finish();
      assertThat(decoded[0])
          .as("%s: the whole body at the end", coding)
          .isEqualTo(50L * EVENT.length);
      c.close();
    }
    // random bytes do not compress: 17 MiB of them pass the 16 MiB cap before the body ends
    StreamCompressor c = new StreamCompressor(ContentCoding.GZIP, FlushPolicy.END);
    byte[] noise = new byte[1 << 20];
    new Random(7).nextBytes(noise);
    int writes = 0;
    while (c.ready() == 0 && writes < 40) {
      c.write(noise, 0, noise.length, true);
      writes++;
    }
    assertThat(c.ready())
        .as("released at the cap, before the end")
        .isGreaterThanOrEqualTo(FlushPolicy.END_HELD_CAP);
    assertThat(writes).isBetween(16, 18);
    c.close();
  }

  @Test
  void aCorruptOrCutBrOrZstdBodyIsRefused() throws Exception {
    for (ContentCoding c : new ContentCoding[] {ContentCoding.BR, ContentCoding.ZSTD}) {
      byte[] wire = encode(c, events(30), FlushPolicy.NONE, EVENT.length);
      BodyDecoder cut = BodyDecoder.of(c);
      cut.feed(wire, 0, wire.length - 3, (b, o, l) -> {});
      assertThatThrownBy(cut::finish).as(c.text()).hasMessageContaining("truncated");
      byte[] garbage = wire.clone();
      Arrays.fill(garbage, 0, Math.min(garbage.length, 12), (byte) 0xff);
      BodyDecoder bad = BodyDecoder.of(c);
      assertThatThrownBy(
              () -> {
                bad.feed(garbage, 0, garbage.length, (b, o, l) -> {});
                bad.finish();
              })
          .as(c.text())
          .isInstanceOf(BodyDecoder.Corrupt.class);
    }
  }

  @Test
  void flushPoliciesReadAndRefuseAsDocumented() {
    assertThat(FlushPolicy.parse("each")).isEqualTo(FlushPolicy.EACH);
    assertThat(FlushPolicy.parse("NONE")).isEqualTo(FlushPolicy.NONE);
    assertThat(FlushPolicy.parse("bytes:4KiB")).isEqualTo(FlushPolicy.bytes(4096));
    assertThat(FlushPolicy.parse("bytes:1000")).isEqualTo(FlushPolicy.bytes(1000));
    assertThat(FlushPolicy.parse("ms:200")).isEqualTo(FlushPolicy.millis(200));
    assertThat(FlushPolicy.parse("ms:1s")).isEqualTo(FlushPolicy.millis(1000));
    assertThat(FlushPolicy.parse("ms:200").text()).isEqualTo("ms:200");
    assertThat(FlushPolicy.parse("input:4KiB")).isEqualTo(FlushPolicy.input(4096));
    assertThat(FlushPolicy.parse("input:4KiB").text()).isEqualTo("input:4096");
    assertThat(FlushPolicy.parse("Next")).isEqualTo(FlushPolicy.NEXT);
    assertThat(FlushPolicy.parse("end")).isEqualTo(FlushPolicy.END);
    assertThat(FlushPolicy.END.text()).isEqualTo("end");
    for (String bad :
        new String[] {
          "",
          "sometimes",
          "bytes:",
          "bytes:0",
          "bytes:1GiB",
          "ms:0",
          "ms:2m",
          "input:0",
          "next:1",
          "end:1"
        }) {
      assertThatThrownBy(() -> FlushPolicy.parse(bad))
          .as(bad)
          .hasMessageContaining("valid: each, none, next, end, bytes:N or input:N");
    }
  }

  private static byte[] events(int n) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) out.writeBytes(EVENT);
    return out.toByteArray();
  }

  /** The whole body through a compressor under this policy, one event per write. */
  private static byte[] encode(ContentCoding c, byte[] plain, FlushPolicy policy, int writeBytes) {
    StreamCompressor s = new StreamCompressor(c, policy);
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    for (int i = 0; i < plain.length; i += writeBytes) {
      s.write(plain, i, Math.min(writeBytes, plain.length - i), true);
      wire.write(s.buffer(), 0, s.ready());
      s.sent();
    }
    s.finish();
    wire.write(s.buffer(), 0, s.ready());
    s.sent();
    return wire.toByteArray();
  }
}
