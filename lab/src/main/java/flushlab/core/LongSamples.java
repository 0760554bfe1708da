package flushlab.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** A growable array of long samples: appending allocates only when it doubles. Not thread-safe. */
public final class LongSamples {
  private long[] values;
  private int size;

  /**
   * The samples as JSON writes them: an array of numbers (a stream's results sent between agents).
   */
  @JsonValue
  public long[] toArray() {
    return Arrays.copyOf(values, size);
  }

  /** Samples read back from {@link #toArray()}'s JSON. */
  @JsonCreator
  public static LongSamples ofArray(long[] samples) {
    LongSamples s = new LongSamples(samples.length);
    for (long v : samples) s.add(v);
    return s;
  }

  public LongSamples(int initialCapacity) {
    values = new long[Math.max(4, initialCapacity)];
  }

  /** One sample. */
  public static LongSamples of(long v) {
    LongSamples s = new LongSamples(1);
    s.add(v);
    return s;
  }

  public void add(long v) {
    if (size == values.length) values = Arrays.copyOf(values, size * 2);
    values[size++] = v;
  }

  public int size() {
    return size;
  }

  public void set(int i, long v) {
    if (i >= size) throw new IndexOutOfBoundsException(i);
    values[i] = v;
  }

  public long get(int i) {
    return values[i];
  }
}
