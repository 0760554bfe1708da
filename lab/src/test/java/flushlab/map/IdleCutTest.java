package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The silent stream's cut, put in a model: first with its silence from the request, and the other
 * order named alike.
 */
class IdleCutTest {
  @Test
  void aCutAloneIsTheIdleStageAlone() {
    ShaperModel m = IdleCut.cut(3004.1, 2.0).appliedTo(ShaperModel.of("passthrough"));
    assertThat(m.chain()).isEqualTo("idle-timeout=3004.1ms");
    assertThat(m.alike()).isEmpty();
  }

  /**
   * `timer=249ms -> idle-timeout=5s`: the head came 249 ms in, the cut 5253 ms in; in front, 5253
   * ms; behind, 5004.
   */
  @Test
  void behindAHoldTheOtherOrderCountsItsSilenceFromTheHead() {
    ShaperModel m = IdleCut.cut(5253.9, 249.5).appliedTo(ShaperModel.of("timer=249.4ms"));
    assertThat(m.chain()).isEqualTo("idle-timeout=5253.9ms -> timer=249.4ms");
    assertThat(m.alike()).containsExactly("timer=249.4ms -> idle-timeout=5004.4ms");
  }

  /**
   * A threshold held the head until upstream closed: a stage behind it saw nothing since the
   * request either.
   */
  @Test
  void aHeadThatCameWithTheCutLeavesTheSilenceFromTheRequest() {
    ShaperModel m = IdleCut.cut(4005.9, 4005.5).appliedTo(ShaperModel.of("byte-threshold=3003B"));
    assertThat(m.alike()).containsExactly("byte-threshold=3003B -> idle-timeout=4005.9ms");
  }

  /**
   * The cork is the socket's: wherever the chain names the idle stage, it saw the head go at the
   * request.
   */
  @Test
  void theSocketsOptionsDoNotMoveTheSilence() {
    assertThat(IdleCut.cut(3006.2, 212.8).appliedTo(ShaperModel.of("cork")).alike())
        .containsExactly("cork -> idle-timeout=3006.2ms");
    ShaperModel nagle =
        IdleCut.cut(3000, 40.0)
            .appliedTo(
                new ShaperModel("timer=40ms -> nagle", null, List.of("nagle -> timer=40ms")));
    assertThat(nagle.chain()).isEqualTo("idle-timeout=3000ms -> timer=40ms -> nagle");
    assertThat(nagle.alike())
        .containsExactly(
            "timer=40ms -> nagle -> idle-timeout=2960ms",
            "idle-timeout=3000ms -> nagle -> timer=40ms",
            "nagle -> timer=40ms -> idle-timeout=2960ms");
  }

  /**
   * Behind a hold and the cork, when the hold let the head go is not known: no other order is
   * claimed.
   */
  @Test
  void behindAHoldAndTheCorkNoOtherOrderIsClaimed() {
    ShaperModel m =
        IdleCut.cut(3500, 510.0)
            .appliedTo(
                new ShaperModel("timer=300ms -> cork", null, List.of("cork -> timer=300ms")));
    assertThat(m.chain()).isEqualTo("idle-timeout=3500ms -> timer=300ms -> cork");
    assertThat(m.alike()).containsExactly("idle-timeout=3500ms -> cork -> timer=300ms");
  }

  @Test
  void noCutOrACutLeftOutChangesNoModel() {
    ShaperModel timer = ShaperModel.of("timer=100ms");
    assertThat(IdleCut.notCut(14200, 1.0).appliedTo(timer)).isEqualTo(timer);
    assertThat(IdleCut.cut(30000, 1.0).leftOutOfTheModel("budget").appliedTo(timer))
        .isEqualTo(timer);
    assertThat(IdleCut.failed(10, "HTTP 400").appliedTo(timer)).isEqualTo(timer);
    assertThat(ShaperModel.none("inconclusive"))
        .isEqualTo(IdleCut.cut(3000, 1.0).appliedTo(ShaperModel.none("inconclusive")));
  }

  @Test
  void theModelsCutAgreesWithinFivePercentOrFiftyMilliseconds() {
    IdleCut target = IdleCut.cut(3000, 1.0);
    assertThat(IdleCut.difference(target, IdleCut.cut(3140, 1.0))).isNull();
    assertThat(IdleCut.difference(target, IdleCut.cut(3160, 1.0)))
        .contains("cut after 3000 ms on the target, 3160 ms on the model");
    assertThat(IdleCut.difference(IdleCut.cut(400, 1.0), IdleCut.cut(445, 1.0))).isNull();
    assertThat(IdleCut.difference(target, IdleCut.notCut(3400, 1.0)))
        .contains("not in 3400 ms on the model");
    assertThat(IdleCut.difference(IdleCut.notCut(9000, 1.0), IdleCut.cut(5000, 1.0)))
        .contains("not in 9000 ms on the target");
    assertThat(IdleCut.difference(target, IdleCut.failed(2, "refused")))
        .contains("failed on the model");
  }

  /**
   * `--expect` is met by the other order, which no cell tells apart; a kind's expectation ignores
   * the idle stage.
   */
  @Test
  void anExpectationOfEitherOrderIsMet() {
    FlushTrigger timer =
        new FlushTrigger(
                "relay", TriggerKind.TIMER, null, null, 249.4, null, "timer", List.of(), List.of())
            .withIdle(IdleCut.cut(5253.9, 249.5));
    assertThat(ModelExpectation.parse("timer=249ms -> idle-timeout=5s", 0.05).difference(timer))
        .isNull();
    assertThat(ModelExpectation.parse("idle-timeout=5250ms -> timer=249ms", 0.05).difference(timer))
        .isNull();
    assertThat(ModelExpectation.parse("timer=249ms", 0.05).difference(timer))
        .contains("2 stage(s), not 1");
    assertThat(ModelExpectation.parse("timer", 0.05).difference(timer)).isNull();
    assertThat(timer.verdict()).endsWith("a connection silent for 5.3 s was cut (an idle timeout)");
    assertThat(timer.evidence())
        .anyMatch(
            e ->
                e.startsWith("silent stream: cut 5254 ms after its request (its head read 250 ms"));
  }
}
