package flushlab.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A lab's folder belongs to a live lab when its pid runs with the start it recorded, read to within
 * the boot time's second.
 */
class WorkFoldersTest {
  @Test
  void aStartReadOneSecondApartIsTheSameStart() {
    assertThat(WorkFolders.sameStart("1796325000", "1796325000")).isTrue();
    // s103: the kernel's boot time sat at a second's edge, so the same process's start read one
    // second apart
    assertThat(WorkFolders.sameStart("1796325000", "1796325001")).isTrue();
    assertThat(WorkFolders.sameStart("1796325001", "1796325000")).isTrue();
    assertThat(WorkFolders.sameStart("1796325000", "1796325003"))
        .as("another process on a reused pid")
        .isFalse();
    assertThat(WorkFolders.sameStart("?", "?")).isTrue();
    assertThat(WorkFolders.sameStart("?", "1796325000")).isFalse();
  }
}
