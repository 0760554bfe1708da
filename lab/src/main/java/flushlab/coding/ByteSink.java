package flushlab.coding;

/**
 * Where bytes a codec releases go; called within the codec's own call, so the bytes are valid only
 * during it.
 */
@FunctionalInterface
public interface ByteSink {
  void accept(byte[] b, int off, int len);
}
