package flushlab.core;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * A file-system failure in words. Java's own messages for these are often the bare path
 * ("/proc/nope"), which says where but not what went wrong.
 */
public final class IoErrors {
  private IoErrors() {}

  public static String describe(IOException e) {
    if (e instanceof NoSuchFileException)
      return "no such file or folder: " + ((FileSystemException) e).getFile();
    if (e instanceof AccessDeniedException)
      return "permission denied: " + ((FileSystemException) e).getFile();
    if (e instanceof NotDirectoryException)
      return "not a folder: " + ((FileSystemException) e).getFile();
    if (e instanceof FileAlreadyExistsException)
      return "already exists: " + ((FileSystemException) e).getFile();
    if (e instanceof DirectoryNotEmptyException)
      return "folder not empty: " + ((FileSystemException) e).getFile();
    if (e instanceof FileSystemException) {
      FileSystemException f = (FileSystemException) e;
      String reason =
          f.getReason() == null ? e.getClass().getSimpleName() : f.getReason().toLowerCase();
      return reason + ": " + f.getFile();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
