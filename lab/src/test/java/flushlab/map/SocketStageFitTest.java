package flushlab.map;

import static flushlab.map.TriggerInferenceTest.drained;
import static flushlab.map.TriggerInferenceTest.held;
import static flushlab.map.TriggerInferenceTest.streamed;
import static org.assertj.core.api.Assertions.assertThat;

import flushlab.netpath.NetworkPath;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Candidates of two mechanisms, a holding stage then the client socket's Nagle, from cells made up
 * from what the two do together (no network): a 3000 B buffer releases 46 frames of 66 B every
 * 92 ms, slower than any delayed ACK, so Nagle adds nothing there; 4104 B frames every 2 ms pass
 * the buffer one by one and leave 16 to a 64 KiB segment.
 */
class SocketStageFitTest {
  static final CellEvidence SMALL = held(66, 2, 600, 46, 90, 92);
  static final CellEvidence SEGMENTS = held(4104, 2, 600, 16, 30, 32);
  static final CellEvidence SLOW = drained(66, 50, 25);

  @Test
  void noOneMechanismExplainsABufferThenNagleAndTheCandidateIsTheBufferFollowedByNagle() {
    FlushTrigger single = TriggerInference.infer("x", List.of(SMALL, SEGMENTS, SLOW));
    assertThat(single.kind()).as(single.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);

    List<SocketStageFit.Candidate> two = SocketStageFit.candidates("x", List.of(SMALL, SEGMENTS, SLOW), NetworkPath.LOOPBACK);
    assertThat(two).hasSize(1);
    Matcher m = Pattern.compile("byte-threshold=(\\d+)B -> nagle").matcher(two.get(0).chain());
    assertThat(m.matches()).as(two.get(0).chain()).isTrue();
    // 46 frames of 66 B: more than 45 of them, at most 46
    assertThat(Integer.parseInt(m.group(1))).isBetween(45 * 66 + 1, 46 * 66);
    FlushTrigger answer = two.get(0).answer();
    assertThat(answer.kind()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(answer.then()).isEqualTo(TriggerKind.NAGLE);
    assertThat(answer.verdict()).contains("Nagle").contains(SEGMENTS.label() + ": 16 frames");
    assertThat(ShaperModel.of(answer).chain()).isEqualTo(two.get(0).chain());
  }

  @Test
  void withoutACellThatLeftASegmentAtATimeThereIsNoCandidate() {
    assertThat(SocketStageFit.candidates("x", List.of(SMALL, SLOW), NetworkPath.LOOPBACK)).isEmpty();
    // releases of 16 frames of 1 KiB are 16 KiB: a buffer's, not a segment's
    assertThat(SocketStageFit.candidates("x", List.of(SMALL, held(1030, 2, 600, 16, 30, 32), SLOW), NetworkPath.LOOPBACK)).isEmpty();
  }

  @Test
  void compressedCellsAreNotReadAsASocketsSegments() {
    CellEvidence gz = new CellEvidence("f=4104 i=2", 4104, 4096, 2, 600, 1, 16, 35, 16, 29.8, 30, 30.3, 31.8, 32, 32.2, 30, false, "gzip");
    assertThat(SocketStageFit.candidates("x", List.of(SMALL, gz, SLOW), NetworkPath.LOOPBACK)).isEmpty();
  }

  /** Nothing held the small frames at all: Nagle alone, which merges only writes that come faster than the peer acknowledges. */
  @Test
  void framesThatStreamWhereTheyCameSlowlyAreNagleAlone() {
    List<SocketStageFit.Candidate> two = SocketStageFit.candidates("x", List.of(streamed(66, 50, 25), SEGMENTS), NetworkPath.LOOPBACK);
    assertThat(two).extracting(SocketStageFit.Candidate::chain).containsExactly("nagle");
    assertThat(two.get(0).answer().kind()).isEqualTo(TriggerKind.NAGLE);
  }

  /** On a 1500 B veth path one buffer's release is already several segments: no candidate is made there yet. */
  @Test
  void onlyTheLoopbackPathsSegmentsAreRead() {
    assertThat(SocketStageFit.candidates("x", List.of(SMALL, SEGMENTS, SLOW), NetworkPath.veth(1500))).isEmpty();
    assertThat(SocketStageFit.candidates("x", List.of(SMALL, SEGMENTS, SLOW), NetworkPath.HOST_ROUTE)).isEmpty();
  }
}
