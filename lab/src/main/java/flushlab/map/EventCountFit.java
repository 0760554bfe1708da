package flushlab.map;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** An event count K: K frames a release, whatever their size and interval. */
final class EventCountFit {

  /**
   * An event count K: the same frames per release in every held cell, though frame sizes and
   * intervals differ. Both must: held cells of one interval release the same frames under a hold
   * timer too, and of one size under a byte threshold (a 110 ms timer in front of a 1809 B
   * threshold released 56 frames at 2 ms whatever their size, and held a 25-frame stream at 50 ms
   * to its end; bench/chains.sh read that as an event count).
   */
  static Integer fit(List<CellEvidence> cells, List<String> evidence) {
    Set<Long> rs = new LinkedHashSet<>();
    double minF = Double.MAX_VALUE;
    double maxF = 0;
    double minI = Double.MAX_VALUE;
    double maxI = 0;
    for (CellEvidence c : cells) {
      if (c.streamed()) return null;
      if (!c.held()) continue;
      long r = Math.round(c.releaseFrames());
      if (r < 2 || !Fits.waitedForFrames(c, r)) return null;
      rs.add(r);
      minF = Math.min(minF, c.frameBytes());
      maxF = Math.max(maxF, c.frameBytes());
      minI = Math.min(minI, c.intervalMs());
      maxI = Math.max(maxI, c.intervalMs());
    }
    if (rs.size() != 1 || maxF < 2 * minF || maxI < 2 * minI) return null;
    int k = rs.iterator().next().intValue();
    for (CellEvidence c : cells) if (c.drained() && c.framesPerStream() >= k) return null;
    evidence.add("event-count check: every held cell released " + k + " frames at a time");
    return k;
  }
}
