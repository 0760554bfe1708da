package flushlab.map;

import static flushlab.map.TriggerInferenceTest.drained;
import static flushlab.map.TriggerInferenceTest.held;
import static org.assertj.core.api.Assertions.assertThat;

import flushlab.netpath.NetworkPath;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Candidates of a holding stage then the kernel's cork, from cells as `map --shape
 * 'byte-threshold=2500B -> cork'` measured them (2026-12-04; no network here): 60 B frames every
 * 10 ms fill the buffer every 380 ms, slower than the cork's ceiling, so each release of 38 frames
 * leaves alone, ~210 ms late; faster cells leave as a cork lets them, about the ceiling apart or a
 * segment at a time, and say nothing of the buffer.
 */
class CorkAfterFitTest {
  static final CellEvidence SLOW_BUFFER = held(66, 10, 120, 38, 580.3, 376.2);
  static final List<CellEvidence> BUFFER_THEN_CORK = List.of(held(66, 2, 600, 114, 282.5, 256.1), segments(), drained(66, 50, 25),
      SLOW_BUFFER, held(1031, 20, 60, 12, 248.4, 236.1));

  /** 4 KiB frames every 2 ms: 16 to a 64 KiB segment, 32 ms apart. */
  static CellEvidence segments() {
    return new CellEvidence("f=4104 i=2", 4104, 4098, 2, 600, 1, 16, 35, 16, 30.1, 32.0, 32.1, 30.1, 32.0, 32.1, 14.0, false, null,
        65503, 65503, 65503);
  }

  @Test
  void aBufferWhoseSlowReleasesWaitTheCorksCeilingMoreIsTheBufferThenTheCork() {
    FlushTrigger single = TriggerInference.infer("x", BUFFER_THEN_CORK);
    assertThat(single.kind()).as(single.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);

    List<TwoStageCandidate> two = CorkAfterFit.candidates("x", BUFFER_THEN_CORK, NetworkPath.LOOPBACK);
    assertThat(two).hasSize(1);
    Matcher m = Pattern.compile("byte-threshold=(\\d+)B -> cork").matcher(two.get(0).chain());
    assertThat(m.matches()).as(two.get(0).chain()).isTrue();
    // 38 frames of 66 B reach it, 37 do not
    assertThat(Integer.parseInt(m.group(1))).isBetween(37 * 66 + 1, 38 * 66);
    FlushTrigger answer = two.get(0).answer();
    assertThat(answer.then()).isEqualTo(TriggerKind.CORK);
    assertThat(two.get(0).socketStage()).isFalse();
    assertThat(ShaperModel.of(answer).alike()).as("the cork is the socket's, wherever the chain names it")
        .containsExactly("cork -> " + two.get(0).chain().replace(" -> cork", ""));
  }

  /** Without a cell whose releases came well over the ceiling apart, the buffer is not seen: no candidate. */
  @Test
  void cellsTheCorkAloneShapesGiveNoCandidate() {
    List<CellEvidence> cells = BUFFER_THEN_CORK.stream().filter(c -> c != SLOW_BUFFER).toList();
    assertThat(CorkAfterFit.candidates("x", cells, NetworkPath.LOOPBACK)).isEmpty();
  }

  /**
   * A larger buffer (3398 B) released the 10 ms cell only once before its end, which says nothing of
   * the gap between its releases: no candidate, and the cell is measured three times longer next.
   */
  @Test
  void aCellReleasedOnceIsMeasuredLongerNotGuessedFrom() {
    CellEvidence once = new CellEvidence("f=66 i=10", 66, 60, 10, 120, 1, 40, 0, 0, 0, 0, 0, 0, 0, 0, 1099.9, false);
    assertThat(once.heldOnce()).isTrue();
    List<CellEvidence> cells = BUFFER_THEN_CORK.stream().map(c -> c == SLOW_BUFFER ? once : c).toList();
    assertThat(CorkAfterFit.candidates("x", cells, NetworkPath.LOOPBACK)).isEmpty();
    assertThat(TriggerInference.nextPlans(cells)).contains(new CellPlan(60, 10_000_000L, 360));
    assertThat(Discovery.longerThanOneRelease(SLOW_BUFFER)).as("a cell released many times").isNull();
  }

  /** A cell that streamed is no cork's: no candidate; nor on a path other than loopback, whose segments are not 64 KiB. */
  @Test
  void aStreamedCellOrAnotherPathGivesNoCandidate() {
    List<CellEvidence> streamed = List.of(SLOW_BUFFER, TriggerInferenceTest.streamed(4104, 2, 600));
    assertThat(CorkAfterFit.candidates("x", streamed, NetworkPath.LOOPBACK)).isEmpty();
    assertThat(CorkAfterFit.candidates("x", BUFFER_THEN_CORK, NetworkPath.of("--path", "veth", 1500))).isEmpty();
  }
}
