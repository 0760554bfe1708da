package flushlab.relay.shaper;

/** Something that takes response items in order: a shaper, or the writer to the client. */
public interface Stage {
  void accept(Chunk chunk);
}
