package flushlab.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
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

  /**
   * A folder this lab made is its own before and after the proxy's group is recorded, and is left
   * alone by a sweep; once the folder is gone, a log read from it says so (a fresh-clone suite,
   * 2026-12-05: apache2 exited with status 1 and its log was missing, with nothing to say why).
   */
  @Test
  void aLiveLabsFolderIsNeverSweptAndAMissingLogSaysItsFolderIsGone() throws Exception {
    Path dir = WorkFolders.create("test");
    try {
      assertThat(WorkFolders.ownerAlive(dir)).isTrue();
      WorkFolders.recordProcessGroup(dir, 4_000_000);
      assertThat(Files.readString(dir.resolve("flushlab-owner")).trim())
          .startsWith(ProcessHandle.current().pid() + " ")
          .endsWith(" 4000000");
      assertThat(WorkFolders.ownerAlive(dir)).isTrue();
      WorkFolders.sweepStale();
      assertThat(dir).isDirectory();
      try (Stream<Path> left = Files.list(dir)) {
        assertThat(left.map(p -> p.getFileName().toString())).containsExactly("flushlab-owner");
      }
    } finally {
      WorkFolders.delete(dir);
    }
    assertThat(ProcessGuard.logTail(dir.resolve("proxy.log"), 5))
        .contains("its folder no longer exists");
  }
}
