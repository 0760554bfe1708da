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
 * from what the two do together (no network): a 3000 B buffer releases 46 frames of 66 B every 92
 * ms, slower than any delayed ACK, so Nagle adds nothing there; 4104 B frames every 2 ms pass the
 * buffer one by one and leave 16 to a 64 KiB segment.
 */
class SocketStageFitTest {
  static final CellEvidence SMALL = held(66, 2, 600, 46, 90, 92);
  static final CellEvidence SEGMENTS = held(4104, 2, 600, 16, 30, 32);
  static final CellEvidence SLOW = drained(66, 50, 25);

  /**
   * The one candidate is a byte threshold then {@code second}, its model the candidate's chain:
   * returns the threshold's bytes.
   */
  static int thresholdThen(List<TwoStageCandidate> two, TriggerKind second) {
    assertThat(two).extracting(TwoStageCandidate::chain).hasSize(1);
    Matcher m =
        Pattern.compile("byte-threshold=(\\d+)B -> " + second.text()).matcher(two.get(0).chain());
    assertThat(m.matches()).as(two.get(0).chain()).isTrue();
    FlushTrigger answer = two.get(0).answer();
    assertThat(answer.kind()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(answer.then()).isEqualTo(second);
    assertThat(ShaperModel.of(answer).chain()).isEqualTo(two.get(0).chain());
    return Integer.parseInt(m.group(1));
  }

  @Test
  void noOneMechanismExplainsABufferThenNagleAndTheCandidateIsTheBufferFollowedByNagle() {
    FlushTrigger single = TriggerInference.infer("x", List.of(SMALL, SEGMENTS, SLOW));
    assertThat(single.kind()).as(single.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);

    List<TwoStageCandidate> two =
        SocketStageFit.candidates("x", List.of(SMALL, SEGMENTS, SLOW), NetworkPath.LOOPBACK);
    // 46 frames of 66 B: more than 45 of them, at most 46
    assertThat(thresholdThen(two, TriggerKind.NAGLE)).isBetween(45 * 66 + 1, 46 * 66);
    assertThat(two.get(0).answer().verdict())
        .contains("Nagle")
        .contains(SEGMENTS.label() + ": 16 frames");
  }

  /**
   * One-late, then Nagle (`map --shape 'one-late -> nagle'`, and `nagle -> one-late`, which is the
   * same relay): every cell of small frames one interval late, 4 KiB frames every 2 ms a segment at
   * a time. Replayed, the candidate reproduced 6 of 6 cells both ways (2026-12-04).
   */
  @Test
  void oneLateThenNagleIsACandidate() {
    List<CellEvidence> cells =
        List.of(
            held(66, 2, 600, 1, 2.0, 2.0),
            SEGMENTS,
            held(66, 50, 25, 1, 50.1, 50),
            held(1031, 20, 60, 1, 20.1, 20));
    assertThat(TriggerInference.infer("x", cells).kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    List<TwoStageCandidate> two = SocketStageFit.candidates("x", cells, NetworkPath.LOOPBACK);
    assertThat(two).extracting(TwoStageCandidate::chain).first().isEqualTo("one-late -> nagle");
    assertThat(two.get(0).answer().kind()).isEqualTo(TriggerKind.ONE_LATE);
    assertThat(ShaperModel.of(two.get(0).answer()).alike()).containsExactly("nagle -> one-late");
  }

  /**
   * A byte threshold then a 92 ms hold, as the browser read it (`flushlab map --shape
   * byte-threshold=8173B --shape timer=92ms --client browser`, 2026-12-07): 4 KiB frames every 2 ms
   * left 46 at a time, 188799 B every 92 ms, nearly three segments. Nagle lets each full segment
   * go, so that is no socket stage: no candidate ends with Nagle, and a replay of the Nagle model
   * (16 frames a release every 32 ms) differs in that cell.
   */
  @Test
  void releasesOfSeveralSegmentsAreNoSocketStage() {
    CellEvidence threeSegments =
        EvidenceLine.parse(
            "frame_size=4096B interval=2ms frames=600: 15.00 frames/read; 12.0 releases per stream of 46 frames (p10 46, p90 46); the oldest frame waited 92.2 ms (p10 92.1, p90 92.5); 92.0 ms between releases (p10 91.7, p90 92.1); 4104 B per frame on the wire, 188799 B per release (p10 188799, p90 188799); the first frame waited 93.0 ms");
    CellEvidence small =
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 124 frames (p10 124, p90 124); the oldest frame waited 246.2 ms (p10 246.2, p90 246.3); 248.0 ms between releases (p10 247.2, p90 248.1); 66 B per frame on the wire, 8187 B per release (p10 8187, p90 8187); the first frame waited 242.9 ms");
    assertThat(SocketStageFit.segmentAtATime(threeSegments, NetworkPath.LOOPBACK_MTU)).isFalse();
    assertThat(SocketStageFit.segmentAtATime(SEGMENTS, NetworkPath.LOOPBACK_MTU)).isTrue();
    assertThat(
            SocketStageFit.candidates(
                "x", List.of(small, threeSegments, SLOW), NetworkPath.LOOPBACK))
        .isEmpty();
    CellEvidence nagleReplay =
        EvidenceLine.parse(
            "frame_size=4096B interval=2ms frames=600: 7.79 frames/read; 38.0 releases per stream of 16 frames (p10 16, p90 16); the oldest frame waited 30.1 ms (p10 30.1, p90 30.2); 32.0 ms between releases (p10 31.4, p90 32.1); 4104 B per frame on the wire, 65727 B per release (p10 65727, p90 65727); the first frame waited 2.1 ms");
    ReplayVerdict v =
        Replay.compare(
            "byte-threshold=8151B -> nagle", List.of(threeSegments), List.of(nagleReplay), true);
    assertThat(v.verified()).as(v.toString()).isFalse();
  }

  /**
   * A threshold of 1706 B then Nagle, as the browser read it (`flushlab map --shape nagle --shape
   * byte-threshold=1706B --client browser`, 2026-12-07): read first as a threshold or a timer of
   * about a segment, the map measured frames of 63571 B, which Nagle let go two at a time (each a
   * write under the segment waiting for the ACK of the one before). That cell is the socket's too,
   * and the threshold is fitted on the small frames' cell: the candidate is the threshold then
   * Nagle.
   */
  @Test
  void framesOfAboutASegmentTwoAtATimeAreTheSocketsToo() {
    List<CellEvidence> cells =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 25.00 frames/read; 22.0 releases per stream of 26 frames (p10 26, p90 26); the oldest frame waited 50.0 ms (p10 50.0, p90 50.2); 52.0 ms between releases (p10 51.9, p90 52.1); 66 B per frame on the wire, 1716 B per release (p10 1716, p90 1716); the first frame waited 46.0 ms",
            "frame_size=4096B interval=2ms frames=600: 7.79 frames/read; 38.0 releases per stream of 16 frames (p10 16, p90 16); the oldest frame waited 30.1 ms (p10 30.0, p90 30.2); 32.0 ms between releases (p10 31.9, p90 32.0); 4104 B per frame on the wire, 65727 B per release (p10 65727, p90 65727); the first frame waited 15.9 ms",
            "frame_size=63571B interval=2ms frames=24: 1.00 frames/read; 10.0 releases per stream of 2 frames (p10 2, p90 2); the oldest frame waited 2.4 ms (p10 2.4, p90 2.5); 4.0 ms between releases (p10 4.0, p90 4.0); 63579 B per frame on the wire, 127167 B per release (p10 127167, p90 127167); the first frame waited 1.5 ms");
    assertThat(SocketStageFit.segmentAtATime(cells.get(2), NetworkPath.LOOPBACK_MTU)).isTrue();
    List<TwoStageCandidate> two = SocketStageFit.candidates("x", cells, NetworkPath.LOOPBACK);
    // (one cell of small frames: a 50 ms hold fits it as well, and the replay tells them apart)
    assertThat(two).extracting(TwoStageCandidate::chain).contains("timer=50ms -> nagle");
    TwoStageCandidate threshold =
        two.stream().filter(c -> c.chain().startsWith("byte-threshold=")).findFirst().orElseThrow();
    assertThat(thresholdThen(List.of(threshold), TriggerKind.NAGLE))
        .isBetween(25 * 66 + 1, 26 * 66 + 130);
  }

  @Test
  void withoutACellThatLeftASegmentAtATimeThereIsNoCandidate() {
    assertThat(SocketStageFit.candidates("x", List.of(SMALL, SLOW), NetworkPath.LOOPBACK))
        .isEmpty();
    // releases of 16 frames of 1 KiB are 16 KiB: a buffer's, not a segment's
    assertThat(
            SocketStageFit.candidates(
                "x", List.of(SMALL, held(1030, 2, 600, 16, 30, 32), SLOW), NetworkPath.LOOPBACK))
        .isEmpty();
  }

  @Test
  void compressedCellsAreNotReadAsASocketsSegments() {
    CellEvidence gz =
        new CellEvidence(
            "f=4104 i=2",
            4104,
            4096,
            2,
            600,
            1,
            16,
            35,
            16,
            29.8,
            30,
            30.3,
            31.8,
            32,
            32.2,
            30,
            false,
            "gzip");
    assertThat(SocketStageFit.candidates("x", List.of(SMALL, gz, SLOW), NetworkPath.LOOPBACK))
        .isEmpty();
  }

  /**
   * Nothing held the small frames at all: Nagle alone, which merges only writes that come faster
   * than the peer acknowledges.
   */
  @Test
  void framesThatStreamWhereTheyCameSlowlyAreNagleAlone() {
    List<TwoStageCandidate> two =
        SocketStageFit.candidates(
            "x", List.of(streamed(66, 50, 25), SEGMENTS), NetworkPath.LOOPBACK);
    assertThat(two).extracting(TwoStageCandidate::chain).containsExactly("nagle");
    assertThat(two.get(0).answer().kind()).isEqualTo(TriggerKind.NAGLE);
  }

  /**
   * Nagle alone lets a think's first comment go at once; a think through which nothing arrived
   * before the first frame (`map --shape 'first-content=any -> nagle'`, 2026-12-05: first body byte
   * and first frame both at 401.6 ms) says first-content holds in front of it. A think whose
   * comments came at 53 ms (`map --shape nagle`) leaves Nagle alone.
   */
  @Test
  void nagleAloneWhoseThinkLetNothingGoBeforeTheFirstFrameHasFirstContentInFront() {
    List<TwoStageCandidate> held =
        SocketStageFit.candidates(
            "x",
            List.of(streamed(66, 50, 25), SEGMENTS, TriggerInferenceTest.thinkCell(401.6, 401.6)),
            NetworkPath.LOOPBACK);
    assertThat(held).hasSize(1);
    ShaperModel model = ShaperModel.of(held.get(0).answer());
    assertThat(List.of(model.chain(), model.alike().get(0)))
        .containsExactlyInAnyOrder("first-content=any -> nagle", "nagle -> first-content=any");
    assertThat(held.get(0).chain()).isEqualTo(model.chain());
    List<TwoStageCandidate> passed =
        SocketStageFit.candidates(
            "x",
            List.of(streamed(66, 50, 25), SEGMENTS, TriggerInferenceTest.thinkCell(53.2, 401.9)),
            NetworkPath.LOOPBACK);
    assertThat(passed).extracting(TwoStageCandidate::chain).containsExactly("nagle");
  }

  /**
   * On a 1500 B veth path one buffer's release is already several segments: no candidate is made
   * there yet.
   */
  @Test
  void onlyTheLoopbackPathsSegmentsAreRead() {
    assertThat(
            SocketStageFit.candidates("x", List.of(SMALL, SEGMENTS, SLOW), NetworkPath.veth(1500)))
        .isEmpty();
    assertThat(
            SocketStageFit.candidates("x", List.of(SMALL, SEGMENTS, SLOW), NetworkPath.HOST_ROUTE))
        .isEmpty();
  }

  /**
   * A cell of stock nginx as `flushlab map --proxy nginx --config
   * scenarios/proxies/nginx-stock.conf` printed it (60 B frames on its HTTP/1.0 upstream).
   */
  static CellEvidence nginx(
      double f,
      double i,
      int frames,
      double fpr,
      double releases,
      double r,
      double w10,
      double w50,
      double w90,
      double g10,
      double g50,
      double g90,
      double first,
      double releaseBytes) {
    return new CellEvidence(
        String.format("frame_size=%.0fB interval=%.0fms frames=%d", f, i, frames),
        f,
        f,
        i,
        frames,
        1,
        fpr,
        releases,
        r,
        w10,
        w50,
        w90,
        g10,
        g50,
        g90,
        first,
        false,
        null,
        releaseBytes,
        releaseBytes,
        releaseBytes);
  }

  /**
   * Stock nginx: 4096 B writes whatever the frame size (60 B frames 68 at a time, 1024 B frames 4
   * at a time, the split one's tail waiting five intervals), then Nagle on 4 KiB frames every 2 ms.
   * No one mechanism fits; the candidate is a split buffer of ~4 KiB followed by Nagle.
   */
  @Test
  void stockNginxIsABufferWrittenFourKibAtATimeThenNagle() {
    List<CellEvidence> cells =
        List.of(
            nginx(60, 2, 600, 66.67, 7, 68, 135.6, 136.2, 139.2, 135.0, 136.1, 139.2, 132.3, 4107),
            nginx(4096, 2, 600, 15.0, 38, 16, 32.0, 32.1, 32.2, 31.9, 32.0, 32.1, 16.1, 65727),
            drained(60, 50, 25),
            new CellEvidence(
                "frame_size=60B interval=10ms frames=120",
                60,
                60,
                10,
                120,
                1,
                60,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                660.1,
                false),
            nginx(1024, 20, 60, 4.0, 13, 4, 80.1, 80.1, 80.2, 79.9, 80.0, 80.2, 60.1, 4107),
            nginx(
                60, 2, 1800, 66.67, 25, 68, 136.2, 136.2, 138.1, 135.9, 136.1, 138.1, 132.2, 4107));
    FlushTrigger single = TriggerInference.infer("nginx", cells);
    assertThat(single.kind()).as(single.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);
    List<TwoStageCandidate> two = SocketStageFit.candidates("nginx", cells, NetworkPath.LOOPBACK);
    assertThat(two).extracting(TwoStageCandidate::chain).hasSize(1);
    Matcher m =
        Pattern.compile("byte-threshold=(\\d+)B,split=true -> nagle").matcher(two.get(0).chain());
    assertThat(m.matches()).as(two.get(0).chain()).isTrue();
    assertThat(Integer.parseInt(m.group(1))).isBetween(67 * 60, 69 * 60);
    assertThat(two.get(0).answer().kind()).isEqualTo(TriggerKind.SPLIT_BUFFER);
  }

  /**
   * A buffer written N bytes at a time, with no socket stage after it, is named alone: the same
   * weight at 60 B and 1 KiB frames, the split frame waiting one interval more.
   */
  @Test
  void aSplitBufferAloneIsNamed() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                nginx(66, 2, 600, 60, 8, 62, 123.6, 124.1, 124.5, 123.8, 124.1, 124.4, 120, 4096),
                nginx(1031, 20, 60, 4.0, 13, 4, 79.9, 80.1, 80.2, 79.9, 80.0, 80.2, 60.1, 4124),
                drained(66, 50, 25)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.SPLIT_BUFFER);
    assertThat(t.thresholdBytes()).isBetween(61 * 66.0, 63 * 66.0);
    assertThat(ShaperModel.of(t).chain()).matches("byte-threshold=\\d+B,split=true");
  }
}
