package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import flushlab.core.Units;
import flushlab.report.SummaryMarkdown;
import flushlab.run.TargetCellResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the lab prints must say what the data says, no more: words checked against their cases. */
class WordingTest {

  static TargetCellResult cell(Cell c) {
    return new TargetCellResult("t", c, List.of(), new BatchResult(List.of()), null);
  }

  static Cell cell(String... kv) {
    Cell c =
        ScenarioFixture.parseUnchecked("name: w\ntargets: [{name: d, kind: direct}]\n")
            .cells()
            .get(0);
    for (int i = 0; i < kv.length; i += 2) c = c.with(Setting.named(kv[i]), kv[i + 1]);
    return c;
  }

  @Test
  void bisectedDurationsReadAsMilliseconds() {
    assertThat(Units.formatDurationReadable(331_250_000L)).isEqualTo("331.25ms");
    assertThat(Units.formatDurationReadable(2_000_000_000L)).isEqualTo("2s");
    assertThat(Units.formatDurationReadable(750_000L)).isEqualTo("750us");
    assertThat(Units.parseDurationNanos(Units.formatDurationReadable(331_250_000L)))
        .isEqualTo(331_250_000L);
  }

  @Test
  void aChatStreamIsDescribedInTokensNotInFramesOfFrameSize() {
    Cell chat = cell("endpoint", "chat", "frames", "200", "interval", "5ms");
    assertThat(SummaryMarkdown.streamDescription(chat, List.of()))
        .isEqualTo("OpenAI chat, 200 tokens every 5ms")
        .doesNotContain("60B");
    assertThat(SummaryMarkdown.streamDescription(cell("frames", "41"), List.of()))
        .isEqualTo("SSE, 41 frames of 60B every 50ms");
  }
}
