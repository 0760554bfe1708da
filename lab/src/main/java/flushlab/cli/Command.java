package flushlab.cli;

import java.io.PrintStream;

/** One flushlab subcommand. It returns an exit code; only {@link Main} exits. */
public interface Command {
  int EXIT_OK = 0;
  int EXIT_FAILED = 1;
  int EXIT_USAGE = 2;

  int run(PrintStream out, PrintStream err) throws Exception;
}
