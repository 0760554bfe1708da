package flushlab.report.page;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.core.IoErrors;
import flushlab.core.Json;
import flushlab.core.UserFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** Reading a results folder's results.json for a page, and writing a page whole. */
public final class ResultsFolder {
  /** The most a results.json may weigh for a page to be drawn from it. */
  static final long MAX_RESULTS_BYTES = 256L << 20;

  private ResultsFolder() {}

  /** A problem with a folder, in words that name it; the commands print it and exit 2. */
  public static final class BadFolder extends Exception {
    private static final long serialVersionUID = 1L;

    BadFolder(String message) {
      super(message);
    }
  }

  /**
   * The results schema this flushlab writes (RunReport takes it from here) and the newest its pages
   * read.
   */
  public static final int SCHEMA_VERSION = 2;

  public static JsonNode read(Path folder) throws BadFolder {
    Path file = folder.resolve("results.json");
    if (!Files.isDirectory(folder))
      throw new BadFolder(
          folder + ": not a folder (give a results folder, the one holding results.json)");
    if (!Files.isRegularFile(file))
      throw new BadFolder(folder + ": no results.json in it (is it a flushlab results folder?)");
    try {
      if (Files.size(file) > MAX_RESULTS_BYTES)
        throw new BadFolder(file + ": larger than " + (MAX_RESULTS_BYTES >> 20) + " MiB");
      JsonNode root = Json.MAPPER.readTree(UserFiles.read(file, MAX_RESULTS_BYTES, "results file"));
      if (root == null || !root.isObject() || !root.has("schema_version")) {
        throw new BadFolder(file + ": not a flushlab results file (no schema_version)");
      }
      JsonNode v = root.get("schema_version");
      if (!v.canConvertToInt() || v.asInt() < 1 || v.asInt() > SCHEMA_VERSION) {
        throw new BadFolder(
            file
                + ": schema_version "
                + v
                + " is not one this flushlab reads (1.."
                + SCHEMA_VERSION
                + "); a newer flushlab wrote it, or it was edited");
      }
      return root;
    } catch (UserFiles.Refused e) {
      throw new BadFolder(e.getMessage());
    } catch (IOException e) {
      throw new BadFolder(file + ": " + IoErrors.describe(e));
    }
  }

  /**
   * Refuses, before any work, a page that cannot be written where asked: a temporary file is made
   * in its folder and removed (a page that could not be written at the end would lose the work).
   */
  public static void checkWritable(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) throw new IOException(dir + " is not a folder");
    if (Files.isDirectory(file)) throw new IOException(file + " is a folder");
    Files.deleteIfExists(Files.createTempFile(dir, "." + file.getFileName() + ".", ".check"));
  }

  /** Writes next to the target and renames it into place: a reader never sees half a page. */
  public static void writeWhole(Path file, String content) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".partial");
    try {
      Files.writeString(tmp, content, StandardCharsets.UTF_8);
      try {
        // a temporary file is private; a page is as readable as the rest of the folder
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      } catch (UnsupportedOperationException notPosix) {
        // keep the default
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
