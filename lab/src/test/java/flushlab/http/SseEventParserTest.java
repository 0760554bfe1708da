package flushlab.http;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ScriptedServer;
import flushlab.Seeds;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** The parser yields the same events however the stream is cut into reads. */
class SseEventParserTest {

  private static List<String> parse(byte[] stream, int[] cuts) {
    List<String> events = new ArrayList<>();
    SseEventParser p =
        new SseEventParser(
            (data, len) -> events.add(new String(data, 0, len, StandardCharsets.UTF_8)));
    int from = 0;
    for (int cut : cuts) {
      p.feed(stream, from, cut - from);
      from = cut;
    }
    p.feed(stream, from, stream.length - from);
    return events;
  }

  private static byte[] sampleStream() {
    String s =
        ": a comment\n"
            + "event: token\ndata: first\n\n"
            + "data: two\ndata: lines\r\n\r\n"
            + "id: 7\rdata:no-space\r\r"
            + "data\n\n"
            + "retry: 100\ndata: {\"pi_seq\":1}\n\n";
    byte[] head = s.getBytes(StandardCharsets.UTF_8);
    byte[] frames = ScriptedServer.frames(60, 0, 1, 2);
    byte[] all = new byte[head.length + frames.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(frames, 0, all, head.length, frames.length);
    return all;
  }

  @Test
  void parsesFieldsAndLineEndings() {
    List<String> events = parse(sampleStream(), new int[0]);
    assertThat(events).hasSize(8);
    assertThat(events.subList(0, 5))
        .containsExactly("first", "two\nlines", "no-space", "", "{\"pi_seq\":1}");
    assertThat(events.get(5)).startsWith("0 ");
  }

  @Test
  void everySingleCutPointGivesTheSameEvents() {
    byte[] stream = sampleStream();
    List<String> whole = parse(stream, new int[0]);
    for (int cut = 1; cut < stream.length; cut++) {
      assertThat(parse(stream, new int[] {cut})).as("cut at %d", cut).isEqualTo(whole);
    }
  }

  @RepeatedTest(20)
  void randomSplitsGiveTheSameEvents() {
    byte[] stream = sampleStream();
    List<String> whole = parse(stream, new int[0]);
    long seed = Seeds.seed("randomSplitsGiveTheSameEvents");
    Random r = new Random(seed);
    int[] cuts = r.ints(r.nextInt(30), 1, stream.length).sorted().distinct().toArray();
    assertThat(parse(stream, cuts)).as("seed %d", seed).isEqualTo(whole);
  }

  @Test
  void theWordAtATimeLineScanFindsWhatAByteScanFinds() {
    long seed = Seeds.seed("theWordAtATimeLineScanFindsWhatAByteScanFinds");
    Random r = new Random(seed);
    byte[] alphabet = {
      '\n', '\r', 'a', 0, (byte) 0x8a, (byte) 0x0b, (byte) 0x0e, (byte) 0xff, '\t'
    };
    for (int round = 0; round < 20_000; round++) {
      byte[] b = new byte[r.nextInt(40)];
      int breaks = r.nextInt(3); // often none, so the scan runs to the end
      for (int i = 0; i < b.length; i++) b[i] = alphabet[2 + r.nextInt(alphabet.length - 2)];
      for (int k = 0; k < breaks && b.length > 0; k++)
        b[r.nextInt(b.length)] = alphabet[r.nextInt(2)];
      int from = b.length == 0 ? 0 : r.nextInt(b.length);
      int to = from + r.nextInt(b.length - from + 1);
      int expected = to;
      for (int i = from; i < to; i++) {
        if (b[i] == '\n' || b[i] == '\r') {
          expected = i;
          break;
        }
      }
      assertThat(SseEventParser.lineEnd(b, from, to))
          .as("seed %d round %d", seed, round)
          .isEqualTo(expected);
    }
  }

  /**
   * The word test behind the line scan is exact: a word holds a line end when, and only when, one
   * of its bytes is CR or LF, for every byte value in every position. (With the mask missing on the
   * LF half, every even byte counted as a line end and a 64 KiB line was scanned one byte at a
   * time: the client read a bulk stream at ~300 MB/s against curl's ~850.)
   */
  @Test
  void theWordTestFindsALineEndExactlyWhenTheWordHoldsOne() {
    for (int position = 0; position < 8; position++) {
      for (int v = 0; v < 256; v++) {
        long word = 0;
        for (int i = 0; i < 8; i++) word |= (long) ((i == position ? v : 'x') & 0xff) << (8 * i);
        boolean lineEnd = v == '\n' || v == '\r';
        assertThat(SseEventParser.holdsCrOrLf(word))
            .as("byte 0x%02x at %d", v, position)
            .isEqualTo(lineEnd);
      }
    }
  }

  @Test
  void aLineOfHundredsOfKilobytesIsOneEventWithEveryByteWhereverTheReadsEnd() {
    long seed = Seeds.seed("aLineOfHundredsOfKilobytesIsOneEvent");
    Random r = new Random(seed);
    StringBuilder line = new StringBuilder();
    while (line.length() < 300_000) line.append((char) ('a' + r.nextInt(26)));
    byte[] stream = ("data: " + line + "\r\ndata: tail\n\n").getBytes(StandardCharsets.US_ASCII);
    int[] cuts = r.ints(40, 1, stream.length).sorted().distinct().toArray();
    assertThat(parse(stream, cuts)).as("seed %d", seed).containsExactly(line + "\ntail");
  }

  @Test
  void anEventIsCappedAtItsLimitExactly() {
    List<String> events = new ArrayList<>();
    SseEventParser p =
        new SseEventParser(
            (data, len) -> events.add(new String(data, 0, len, StandardCharsets.US_ASCII)), 1000);
    p.feed(("data: " + "x".repeat(600)).getBytes(StandardCharsets.US_ASCII), 0, 606);
    p.feed(("x".repeat(400) + "\n\n").getBytes(StandardCharsets.US_ASCII), 0, 402);
    assertThat(events).containsExactly("x".repeat(1000));
    byte[] over = ("data: " + "x".repeat(1001) + "\n\n").getBytes(StandardCharsets.US_ASCII);
    Assertions.assertThatThrownBy(() -> p.feed(over, 0, over.length))
        .isInstanceOf(HttpParseException.class)
        .hasMessageContaining("larger than 1000 bytes");
  }

  @Test
  void aFrameSplitInsideItsBlankLineCompletesOnlyWhenTheSecondNewlineArrives() {
    byte[] frame = ScriptedServer.frames(60, 5);
    List<Integer> dispatchedAfterPiece = new ArrayList<>();
    int[] piece = {0};
    SseEventParser p = new SseEventParser((d, l) -> dispatchedAfterPiece.add(piece[0]));
    p.feed(frame, 0, frame.length - 1); // everything up to the first '\n' of "\n\n"
    piece[0] = 1;
    p.feed(frame, frame.length - 1, 1);
    assertThat(dispatchedAfterPiece).containsExactly(1);
  }

  @Test
  void chunkBoundariesInsideFramesDoNotChangeTheFrames() {
    byte[] frames = ScriptedServer.frames(60, 0, 1, 2, 3, 4, 5);
    // Wrap the frames in HTTP chunks of 7 bytes: chunk boundaries fall inside every frame.
    StringBuilder wire =
        new StringBuilder(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/event-stream\r\n\r\n");
    for (int i = 0; i < frames.length; i += 7) {
      int n = Math.min(7, frames.length - i);
      wire.append(Integer.toHexString(n))
          .append("\r\n")
          .append(new String(frames, i, n, StandardCharsets.ISO_8859_1))
          .append("\r\n");
    }
    wire.append("0\r\n\r\n");
    byte[] bytes = wire.toString().getBytes(StandardCharsets.ISO_8859_1);
    List<String> events = new ArrayList<>();
    boolean[] done = {false};
    SseEventParser sse =
        new SseEventParser((d, l) -> events.add(new String(d, 0, l, StandardCharsets.US_ASCII)));
    HttpResponseParser http =
        new HttpResponseParser(
            new HttpResponseParser.Listener() {
              public void onHead(int status, String reason, Headers headers) {}

              public void onBody(byte[] b, int off, int len) {
                sse.feed(b, off, len);
              }

              public void onComplete() {
                done[0] = true;
              }
            });
    Random r = new Random(Seeds.seed("SseEventParserTest splits"));
    int from = 0;
    while (from < bytes.length) {
      int n = Math.min(bytes.length - from, 1 + r.nextInt(13));
      http.feed(bytes, from, n);
      from += n;
    }
    assertThat(done[0]).isTrue();
    assertThat(events).hasSize(6);
    for (int i = 0; i < 6; i++) assertThat(events.get(i)).startsWith(i + " ");
  }
}
