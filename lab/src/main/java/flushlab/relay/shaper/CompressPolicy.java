package flushlab.relay.shaper;

import static flushlab.relay.shaper.Compress.AFTER;
import static flushlab.relay.shaper.Compress.BYTES;
import static flushlab.relay.shaper.Compress.FLUSH;

import flushlab.coding.FlushPolicy;
import flushlab.relay.shaper.Compress.Flush;

/**
 * The compress shaper's flush policy as its parameters give it: flush= and the bytes= or after=
 * that policy needs, and no other, or a clear error naming what goes with what.
 */
final class CompressPolicy {
  private CompressPolicy() {}

  static FlushPolicy of(Params p) {
    Flush flush = p.choice(FLUSH, Flush.class);
    Long bytes = p.has(BYTES) ? p.get(BYTES) : null;
    Long after = p.has(AFTER) ? p.get(AFTER) : null;
    boolean countsBytes = flush == Flush.BYTES || flush == Flush.INPUT;
    if (bytes != null && !countsBytes || after != null && flush != Flush.TIMER) {
      throw new ShaperSpecException(
          "shaper 'compress': bytes= goes with flush=bytes or flush=input, and after= with flush=timer");
    }
    return switch (flush) {
      case BYTES -> FlushPolicy.bytes(needed(bytes, "flush=bytes needs bytes=", BYTES));
      case TIMER ->
          new FlushPolicy(FlushPolicy.Kind.MS, needed(after, "flush=timer needs after=", AFTER));
      case INPUT -> FlushPolicy.input(needed(bytes, "flush=input needs bytes=", BYTES));
      case NONE -> FlushPolicy.NONE;
      case NEXT -> FlushPolicy.NEXT;
      case END -> FlushPolicy.END;
      case EACH -> FlushPolicy.EACH;
    };
  }

  private static long needed(Long value, String what, Param param) {
    if (value == null)
      throw new ShaperSpecException("shaper 'compress': " + what + " (" + param.rangeText() + ")");
    return value;
  }
}
