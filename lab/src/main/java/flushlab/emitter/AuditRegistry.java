package flushlab.emitter;

import java.util.LinkedHashMap;
import java.util.Map;

/** The pacing audits of the most recent streams, bounded so a long-running emitter stays small. */
public final class AuditRegistry {
  public static final int MAX_STREAMS = 10_000;

  private final Map<Long, PacingAudit> audits = new LinkedHashMap<>(256, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, PacingAudit> eldest) {
      return size() > MAX_STREAMS;
    }
  };

  synchronized void register(PacingAudit audit) {
    audits.put(audit.streamId(), audit);
  }

  /** The audit of a stream, or null if it is unknown or evicted. */
  public synchronized PacingAudit get(long streamId) {
    return audits.get(streamId);
  }
}
