package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.ScriptedServer;
import flushlab.ScriptedServer.Step;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Servers that misbehave in known ways, and what the meter must say about each. */
class MeterSignaturesTest extends LabTest {

  private BatchResult measure(ScriptedServer server, String query) throws Exception {
    return lab.measure("http://127.0.0.1:" + server.port() + "/sse?" + query);
  }

  @Test
  void fiveFramesPerWriteReadsAsAboutFiveFramesPerRead() throws Exception {
    List<Step> steps = new ArrayList<>();
    steps.add(new Step(0, ScriptedServer::sseHead));
    for (int w = 0; w < 8; w++) {
      long base = w * 5L;
      steps.add(
          new Step(
              20, () -> ScriptedServer.frames(60, base, base + 1, base + 2, base + 3, base + 4)));
    }
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = measure(server, "frames=40");
      assertThat(r.errorCount()).isZero();
      assertThat(r.frames()).isEqualTo(40);
      assertThat(r.framesPerRead()).isBetween(4.5, 5.0);
      // frames that share a read have a zero gap: at least 4 of every 5 gaps
      assertThat(r.gapMs().p50()).isEqualTo(0.0);
    }
  }

  @Test
  void droppedDuplicatedReorderedAndCorruptFramesAreEachCounted() throws Exception {
    List<Step> steps = new ArrayList<>();
    steps.add(new Step(0, ScriptedServer::sseHead));
    // seq 3 never sent, 5 sent twice, 8 arrives after 9, and one frame is corrupted in flight
    long[] order = {0, 1, 2, 4, 5, 5, 6, 7, 9, 8};
    for (long seq : order) steps.add(new Step(2, () -> ScriptedServer.frames(60, seq)));
    steps.add(
        new Step(
            2,
            () -> {
              byte[] f = ScriptedServer.frames(60, 10);
              f[40] = (byte) (f[40] == 'x' ? 'y' : 'x');
              return f;
            }));
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = measure(server, "frames=11");
      assertThat(r.errorCount()).isZero();
      assertThat(r.duplicateFrames()).isEqualTo(1);
      assertThat(r.reorderedFrames()).isEqualTo(1);
      assertThat(r.corruptFrames()).isEqualTo(1);
      assertThat(r.lostFrames()).as("seq 3 and the corrupted seq 10").isEqualTo(2);
    }
  }

  @Test
  void aServerThatIsNotHttpIsReportedAsSuch() throws Exception {
    List<Step> steps =
        List.of(new Step(0, () -> "SSH-2.0-OpenSSH_9.2\r\n".getBytes(StandardCharsets.US_ASCII)));
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = measure(server, "frames=3");
      assertThat(r.errorCount()).isEqualTo(1);
      assertThat(r.errors().get(0)).containsEntry("kind", "not_http");
      assertThat((String) r.errors().get(0).get("example")).contains("SSH-2.0");
    }
  }

  @Test
  void aResponseThatIsNotSseIsReportedAsSuch() throws Exception {
    List<Step> steps =
        List.of(
            new Step(
                0,
                () ->
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello"
                        .getBytes(StandardCharsets.US_ASCII)));
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = measure(server, "frames=3");
      assertThat(r.errors().get(0)).containsEntry("kind", "not_sse");
      assertThat((String) r.errors().get(0).get("example")).contains("text/html");
    }
  }

  @Test
  void aCutChunkedStreamIsATruncationNotAMeasurement() throws Exception {
    List<Step> steps =
        List.of(
            new Step(
                0,
                () ->
                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII)),
            new Step(
                2,
                () -> {
                  byte[] f = ScriptedServer.frames(60, 0);
                  return ("3c\r\n" + new String(f, StandardCharsets.ISO_8859_1) + "\r\n")
                      .getBytes(StandardCharsets.ISO_8859_1);
                }));
    try (ScriptedServer server = ScriptedServer.playing(lab.vertx, steps)) {
      BatchResult r = measure(server, "frames=3");
      assertThat(r.streamsOk()).isZero();
      assertThat(r.errors().get(0)).containsEntry("kind", "truncated");
      assertThat(r.frames()).as("errored streams are not aggregated").isZero();
    }
  }
}
