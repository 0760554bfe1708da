package flushlab.relay;

import java.io.PrintStream;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/** Where a relay says what it did to a connection and why (never on the per-byte path). */
public interface RelayLog {
  void log(String line);

  static RelayLog to(PrintStream out) {
    DateTimeFormatter f = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    return line -> out.println(LocalTime.now().format(f) + " relay " + line);
  }

  RelayLog SILENT = line -> {};
}
