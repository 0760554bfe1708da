package flushlab.cluster;

import flushlab.core.UserFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Set;

/**
 * The lab's shared secret, from a file or the environment, never from a flag (a flag shows in ps).
 * A file must be a regular file of at most {@link #MAX_FILE_BYTES}; it is read through a bounded
 * read, so a file that grows between the check and the read is refused, not read whole.
 */
public final class ClusterSecret {
  public static final String ENV = "FLUSHLAB_CLUSTER_SECRET";
  public static final int MAX_FILE_BYTES = 4096;

  private ClusterSecret() {}

  /**
   * @param file the secret file, or null for {@link #ENV}
   * @param what how the user named the file, for messages ("--secret-file", "cluster.secret_file")
   * @return the secret's bytes, surrounding white space dropped; the caller wipes them once used
   */
  public static byte[] read(Path file, String what) throws IOException {
    if (file == null) {
      String env = System.getenv(ENV);
      if (env == null || env.isEmpty()) {
        throw new IllegalArgumentException(
            "no secret: give " + what + " or set " + ENV + " (the same on every agent of the lab)");
      }
      return env.strip().getBytes(StandardCharsets.UTF_8);
    }
    byte[] raw = UserFiles.read(file, MAX_FILE_BYTES, what);
    refuseIfOthersMayRead(file, what);
    byte[] secret =
        new String(raw, StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8);
    Arrays.fill(raw, (byte) 0);
    return secret;
  }

  /**
   * A secret that other users of the host can read is no secret: whoever reads it commands the
   * lab's agents. Refused, with the fix, where the file system has POSIX modes.
   */
  static void refuseIfOthersMayRead(Path file, String what) throws IOException {
    Set<PosixFilePermission> mode;
    try {
      mode = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException e) {
      return; // no POSIX modes here: nothing to check
    }
    if (mode.contains(PosixFilePermission.GROUP_READ)
        || mode.contains(PosixFilePermission.OTHERS_READ)) {
      throw new IllegalArgumentException(
          what
              + " "
              + file
              + " is readable by other users (mode "
              + PosixFilePermissions.toString(mode)
              + "); a lab's secret must be readable by its owner only: chmod 600 "
              + file);
    }
  }
}
