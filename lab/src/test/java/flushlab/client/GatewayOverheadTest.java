package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GatewayOverheadTest {

  @Test
  void theSpreadIsTheInterquartileRangeOfTheRoundsDifferences() {
    double[] five = {-1, 2, 3, 4, 40}; // one outlying round
    assertThat(GatewayOverhead.quantile(five, 0.25)).isEqualTo(2.0);
    assertThat(GatewayOverhead.quantile(five, 0.75)).isEqualTo(4.0);
    double[] three = {1, 2, 5};
    assertThat(GatewayOverhead.quantile(three, 0.75) - GatewayOverhead.quantile(three, 0.25))
        .isEqualTo(2.0); // half the range
  }

  @Test
  void aDifferenceNoLargerThanItsSpreadIsNotResolved() {
    assertThat(
            new GatewayOverhead.Difference(GatewayOverhead.Metric.TTFT, 0.2, 0.3, 0.2, 0.5, 5)
                .resolved())
        .isFalse();
    assertThat(
            new GatewayOverhead.Difference(GatewayOverhead.Metric.TTFT, -0.5, 0.3, 0.2, 0.5, 5)
                .resolved())
        .isTrue();
    assertThat(
            new GatewayOverhead.Difference(GatewayOverhead.Metric.TTFT, 5, 0, 5, 5, 1).resolved())
        .as("one round has no spread to compare with")
        .isFalse();
  }
}
