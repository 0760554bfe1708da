package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Outcomes;
import flushlab.map.TriggerKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A map refused by its certification says why in its answer, as the certification said it: a host
 * that stalled through it is named, never the target (s257's answer said only "the host is not
 * certified", and its test could not tell this host's stalls from a fault of the map).
 */
class UncertifiedAnswerTest {
  private static Outcome uncertified(String verdict) {
    return Outcomes.certifiedAs(new Certification(false, 0, 0, List.of(), verdict));
  }

  @Test
  void theAnswerOfAnUncertifiedHostCarriesTheCertificationsReason() {
    MapAnswer a =
        MapAnswer.of(
            "relay",
            uncertified(
                "not certified: this host stalled during certification, 2 time(s) over 20 ms"),
            1.0);
    assertThat(a.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(a.verdict())
        .isEqualTo(
            "the host is not certified: this host stalled during certification, 2 time(s) over 20 ms");
  }

  @Test
  void aDirectPathThatCoalescedIsNamedAsSuch() {
    MapAnswer a =
        MapAnswer.of(
            "relay",
            uncertified(
                "not certified: the direct path read 1.330 frames per read, over the ceiling of 1.10"),
            1.0);
    assertThat(a.verdict())
        .startsWith("the host is not certified: the direct path read 1.330")
        .doesNotContain("this host stalled");
  }
}
