package flushlab.process;

import flushlab.core.ProcFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The private temporary folders proxies run in (config, pid, temp files, log). Each records the lab
 * process that owns it; the lab deletes its folder when it stops the proxy, and a lab that starts
 * deletes the folders of labs that died without doing so (killed, or the machine lost power), after
 * killing whatever still runs in such a folder's process group.
 */
public final class WorkFolders {
  public static final String PREFIX = "flushlab-";
  private static final String OWNER_FILE = "flushlab-owner";

  private WorkFolders() {}

  public static Path root() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** A new folder for one proxy, owned by this lab process. */
  public static Path create(String kind) throws IOException {
    Path dir = Files.createTempDirectory(root(), PREFIX + kind + "-");
    ProcessHandle me = ProcessHandle.current();
    Path next = dir.resolve(OWNER_FILE + ".next");
    Files.writeString(next, me.pid() + " " + startOf(me) + "\n", StandardCharsets.UTF_8);
    Files.move(next, dir.resolve(OWNER_FILE), StandardCopyOption.ATOMIC_MOVE);
    return dir;
  }

  /**
   * Records the process group the proxy runs in, for a later lab to clean up if this one dies. The
   * owner file is replaced whole (written beside it, then renamed over it): another lab's sweep
   * that read it half-written could take a live owner's start for a dead one's and delete the
   * folder.
   */
  public static void recordProcessGroup(Path dir, long pgid) throws IOException {
    Path owner = dir.resolve(OWNER_FILE);
    Path next = dir.resolve(OWNER_FILE + ".next");
    Files.writeString(
        next, Files.readString(owner).trim() + " " + pgid + "\n", StandardCharsets.UTF_8);
    Files.move(next, owner, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  public static void delete(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException e) {
      // best effort: a later lab's sweep retries
    }
  }

  /**
   * Deletes the folders whose owning lab is gone, killing any process still in the recorded process
   * group first. Returns how many folders were removed.
   */
  public static int sweepStale() {
    int removed = 0;
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root(), PREFIX + "*")) {
      for (Path dir : dirs) {
        Path owner = dir.resolve(OWNER_FILE);
        if (!Files.isRegularFile(owner)) continue;
        if (Files.exists(dir.resolve("netns")))
          continue; // a veth path's folder: VethLink.sweepStale removes its namespace first
        String[] f = Files.readString(owner).trim().split(" ");
        if (f.length < 2 || ownerAlive(Long.parseLong(f[0]), f[1])) continue;
        if (f.length >= 3) killGroup(Long.parseLong(f[2]));
        delete(dir);
        removed++;
      }
    } catch (IOException | RuntimeException e) {
      // a folder we cannot read is not ours to judge
    }
    return removed;
  }

  /** True when the lab that made this folder still runs (or the folder records no owner). */
  public static boolean ownerAlive(Path dir) {
    try {
      String[] f = Files.readString(dir.resolve(OWNER_FILE)).trim().split(" ");
      return f.length < 2 || ownerAlive(Long.parseLong(f[0]), f[1]);
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }

  private static boolean ownerAlive(long pid, String start) {
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    return h.isPresent() && h.get().isAlive() && sameStart(start, startOf(h.get()));
  }

  /**
   * Whether two readings of a process's start (epoch seconds) are the same start. Java derives it
   * from the kernel's boot time, whole seconds that move by one when the clock is slewed across a
   * second (here the boot time sat at 1796321497.99x, and /proc/stat's btime read 497 or 498): read
   * exactly, a live lab looked dead to another lab's sweep, which killed its proxy and deleted its
   * folder mid-test (s103). A pid reused within a second of the same start stays out of reach.
   */
  static boolean sameStart(String recorded, String now) {
    if (recorded.equals(now)) return true;
    try {
      return Math.abs(Long.parseLong(recorded) - Long.parseLong(now)) <= 1;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String startOf(ProcessHandle h) {
    return h.info().startInstant().map(i -> Long.toString(i.toEpochMilli() / 1000)).orElse("?");
  }

  /** Kills every process of a process group, found in /proc (Java has no killpg). */
  public static void killGroup(long pgid) {
    for (long pid : processGroup(pgid))
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  /** The pids whose process group is pgid, from field 5 of /proc/PID/stat. */
  public static List<Long> processGroup(long pgid) {
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      return procs
          .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .filter(p -> pgid == groupOf(p))
          .map(p -> Long.parseLong(p.getFileName().toString()))
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private static long groupOf(Path proc) {
    try {
      String stat = ProcFiles.read(proc.resolve("stat"));
      // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses: read after the last
      // ')'
      String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(rest[2]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
