package flushlab.scenario;

import java.util.List;

/** A scenario that cannot run: every mistake found, each with file, line, column and key. */
public final class ScenarioError extends Exception {
  private static final long serialVersionUID = 1L;
  private final List<String> messages;

  public ScenarioError(List<String> messages) {
    super(String.join("\n", messages));
    this.messages = List.copyOf(messages);
  }

  public List<String> messages() {
    return messages;
  }
}
