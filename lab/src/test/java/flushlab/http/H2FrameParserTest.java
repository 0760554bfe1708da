package flushlab.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 frames read back whatever way the bytes are split; header blocks are put together from
 * CONTINUATIONs; bad frames are refused.
 */
class H2FrameParserTest {
  /** What the parser said, as text, with DATA concatenated per stream. */
  private static final class Recorder implements H2FrameParser.Listener {
    final List<String> events = new ArrayList<>();
    final ByteArrayOutputStream data = new ByteArrayOutputStream();
    int dataCalls;

    @Override
    public void onData(int streamId, byte[] b, int off, int len, boolean endStream) {
      data.write(b, off, len);
      dataCalls++;
      if (endStream) events.add("end " + streamId);
    }

    @Override
    public void onHeaders(int streamId, byte[] block, int len, boolean endStream) {
      events.add(
          "headers "
              + streamId
              + " "
              + new String(block, 0, len, StandardCharsets.US_ASCII)
              + (endStream ? " end" : ""));
    }

    @Override
    public void onSettings(boolean ack, int[] idValue) {
      events.add("settings " + (ack ? "ack" : Arrays.toString(idValue)));
    }

    @Override
    public void onWindowUpdate(int streamId, int increment) {
      events.add("window " + streamId + " +" + increment);
    }

    @Override
    public void onPing(boolean ack, byte[] opaque) {
      events.add("ping " + ack);
    }

    @Override
    public void onRstStream(int streamId, long code) {
      events.add("rst " + streamId + " " + H2.errorName(code));
    }

    @Override
    public void onGoAway(int lastStreamId, long code) {
      events.add("goaway " + lastStreamId + " " + H2.errorName(code));
    }
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) out.writeBytes(p);
    return out.toByteArray();
  }

  private static final byte[] PAYLOAD =
      "data: 1 2 3 abcdefghijklmnopqrstuvwxyz\n\n".getBytes(StandardCharsets.US_ASCII);

  /**
   * SETTINGS, HEADERS split into a CONTINUATION, a padded DATA, a DATA with END_STREAM, a
   * WINDOW_UPDATE, a RST_STREAM.
   */
  private static byte[] conversation() {
    byte[] padded = new byte[1 + PAYLOAD.length + 3];
    padded[0] = 3;
    System.arraycopy(PAYLOAD, 0, padded, 1, PAYLOAD.length);
    return concat(
        H2.settings(H2.SETTINGS_INITIAL_WINDOW_SIZE, 1000),
        H2.frame(H2.HEADERS, 0, 1, "abc".getBytes(StandardCharsets.US_ASCII)),
        H2.frame(
            H2.CONTINUATION, H2.FLAG_END_HEADERS, 1, "def".getBytes(StandardCharsets.US_ASCII)),
        H2.frame(H2.DATA, H2.FLAG_PADDED, 1, padded),
        H2.frame(H2.DATA, H2.FLAG_END_STREAM, 1, PAYLOAD),
        H2.windowUpdate(0, 4096),
        H2.rstStream(3, H2.CANCEL));
  }

  @Test
  void aConversationReadsTheSameSplitAtEveryByte() {
    byte[] all = conversation();
    Recorder whole = new Recorder();
    new H2FrameParser(whole, H2.DEFAULT_MAX_FRAME).feed(all, 0, all.length);
    assertThat(whole.events)
        .containsExactly(
            "settings [4, 1000]", "headers 1 abcdef", "end 1", "window 0 +4096", "rst 3 CANCEL");
    assertThat(whole.data.toByteArray()).isEqualTo(concat(PAYLOAD, PAYLOAD));
    for (int cut = 1; cut < all.length; cut++) {
      Recorder r = new Recorder();
      H2FrameParser p = new H2FrameParser(r, H2.DEFAULT_MAX_FRAME);
      p.feed(all, 0, cut);
      p.feed(all, cut, all.length - cut);
      assertThat(r.events).as("split at byte %d", cut).isEqualTo(whole.events);
      assertThat(r.data.toByteArray())
          .as("data split at byte %d", cut)
          .isEqualTo(whole.data.toByteArray());
    }
    Recorder bytewise = new Recorder();
    H2FrameParser p = new H2FrameParser(bytewise, H2.DEFAULT_MAX_FRAME);
    for (int i = 0; i < all.length; i++) p.feed(all, i, 1);
    assertThat(bytewise.events).isEqualTo(whole.events);
    assertThat(bytewise.data.toByteArray()).isEqualTo(whole.data.toByteArray());
    assertThat(bytewise.dataCalls)
        .as("DATA handed on as its bytes arrive, not held to the frame's end")
        .isGreaterThan(2 * PAYLOAD.length - 4);
  }

  @Test
  void badFramesAreRefusedNamingTheError() {
    byte[] big = H2.frame(H2.DATA, 0, 1, new byte[H2.DEFAULT_MAX_FRAME + 1]);
    assertThatThrownBy(
            () -> new H2FrameParser(new Recorder(), H2.DEFAULT_MAX_FRAME).feed(big, 0, big.length))
        .hasMessageContaining("FRAME_SIZE_ERROR");
    byte[] interrupted =
        concat(H2.frame(H2.HEADERS, 0, 1, new byte[] {1}), H2.frame(H2.DATA, 0, 1, new byte[] {2}));
    assertThatThrownBy(
            () ->
                new H2FrameParser(new Recorder(), H2.DEFAULT_MAX_FRAME)
                    .feed(interrupted, 0, interrupted.length))
        .hasMessageContaining("interrupted");
    byte[] push = H2.frame(H2.PUSH_PROMISE, H2.FLAG_END_HEADERS, 1, new byte[] {0, 0, 0, 2});
    assertThatThrownBy(
            () ->
                new H2FrameParser(new Recorder(), H2.DEFAULT_MAX_FRAME).feed(push, 0, push.length))
        .hasMessageContaining("PUSH_PROMISE");
    byte[] dataOnZero = H2.frame(H2.DATA, 0, 0, new byte[] {1});
    assertThatThrownBy(
            () ->
                new H2FrameParser(new Recorder(), H2.DEFAULT_MAX_FRAME)
                    .feed(dataOnZero, 0, dataOnZero.length))
        .hasMessageContaining("stream 0");
  }
}
