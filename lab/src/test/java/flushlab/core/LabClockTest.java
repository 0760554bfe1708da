package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabClockTest {

  /**
   * Two anchors of the monotonic clock on the wall clock, taken one after the other, must imply the
   * same offset between the clocks to within their brackets (plus the wall clock's microsecond
   * resolution): that is what keeps two processes that anchor separately on one timeline. A single
   * cold reading, as before, could be 10-110 us off.
   */
  @Test
  void anchorsTakenSeparatelyAgreeWithinTheirBrackets() {
    LabClock.anchorOnWallClock(200); // warm the clocks' code, as the class load does not
    long[] a = LabClock.anchorOnWallClock(200);
    long[] b = LabClock.anchorOnWallClock(200);
    long offsetA = a[1] - a[0];
    long offsetB = b[1] - b[0];
    System.out.println(
        "anchor brackets "
            + a[2]
            + " ns and "
            + b[2]
            + " ns; offsets differ by "
            + Math.abs(offsetA - offsetB)
            + " ns");
    assertThat(Math.abs(offsetA - offsetB)).isLessThanOrEqualTo((a[2] + b[2]) / 2 + 2_000);
    assertThat(a[2]).as("the narrowest bracket of 200 readings, ns").isLessThan(50_000);
  }

  @Test
  void aChildGivenTheParentsAnchorStampsOnTheParentsClock() {
    String property = LabClock.anchorProperty();
    assertThat(property).startsWith("-D" + LabClock.ANCHOR_PROPERTY + "=").matches(".*=\\d+,\\d+");
  }
}
