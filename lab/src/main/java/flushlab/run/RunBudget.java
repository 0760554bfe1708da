package flushlab.run;

import flushlab.scenario.Cell;

/**
 * When a run's budget ends (System.nanoTime; `flushlab map --budget`): nothing is started after it,
 * and no request waits past it. {@link #NONE}: a run with no budget.
 */
record RunBudget(long deadlineNanos) {
  static final RunBudget NONE = new RunBudget(Long.MAX_VALUE);

  /** The budget is spent: nothing more is started. */
  boolean spent() {
    return deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos >= 0;
  }

  /** What is left of it, in ms (a quarter of the longest value when there is no budget). */
  long msLeft() {
    return deadlineNanos == Long.MAX_VALUE
        ? Long.MAX_VALUE / 4
        : Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
  }

  /** The cell with its request timeout the smaller of its own and what is left of the budget. */
  Cell within(Cell cell) {
    if (deadlineNanos == Long.MAX_VALUE) return cell;
    long left = Math.max(1_000_000L, deadlineNanos - System.nanoTime());
    return left >= cell.client().timeoutNanos()
        ? cell
        : cell.withClient(cell.client().withTimeoutNanos(left));
  }
}
