package flushlab;

import flushlab.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs a flushlab command in this JVM, as `flushlab ARGS` would, and keeps its exit code and
 * output.
 */
public final class Cli {
  private Cli() {}

  public record Ran(int code, String out, String err) {}

  public static Ran flushlab(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out, true), new PrintStream(err, true));
    return new Ran(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
