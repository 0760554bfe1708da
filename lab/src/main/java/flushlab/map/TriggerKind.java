package flushlab.map;

import com.fasterxml.jackson.annotation.JsonValue;

/** What {@link FlushTrigger} names as a target's flush trigger; JSON and tables show {@link #text()}. */
public enum TriggerKind {
  /** Every frame leaves at once. */
  NONE("none"),
  /** The whole response leaves at its end. */
  DRAIN("drain"),
  /** A buffer released when it holds N bytes. */
  BYTE_THRESHOLD("byte-threshold"),
  /** Held for T from the first held byte. */
  TIMER("timer"),
  /** Released every P, whatever arrives. */
  PERIODIC_TIMER("periodic-timer"),
  /** Released every K events. */
  EVENT_COUNT("event-count"),
  /** N bytes or T after the first held byte, whichever first. */
  THRESHOLD_OR_TIMER("threshold-or-timer"),
  /** The kernel's cork (or MSG_MORE): a segment's worth or about 200 ms. */
  CORK("cork"),
  /** The cells measured cannot tell. */
  INCONCLUSIVE("inconclusive");

  private final String text;

  TriggerKind(String text) {
    this.text = text;
  }

  @JsonValue
  public String text() {
    return text;
  }

  /** The kind a text names (a bench case, a results file), or null. */
  public static TriggerKind named(String text) {
    for (TriggerKind k : values()) if (k.text.equals(text)) return k;
    return null;
  }

  @Override
  public String toString() {
    return text;
  }
}
