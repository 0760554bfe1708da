package flushlab.cli;

import java.io.PrintStream;

/** One flushlab subcommand. It returns an exit code; only {@link Main} exits. */
public interface Command {
  int EXIT_OK = 0;
  int EXIT_FAILED = 1;
  int EXIT_USAGE = 2;
  int EXIT_UNCERTIFIED = 3;
  int EXIT_INTERRUPTED = 130;

  int run(PrintStream out, PrintStream err) throws Exception;

  /** The command line as the user typed it (recorded with results); most commands ignore it. */
  default void invokedAs(String commandLine) {}
}
