package flushlab.client;

import flushlab.coding.ContentCoding;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The content codings a batch's complete streams arrived in. */
final class StreamCodings {
  private StreamCodings() {}

  /** Each coding with how many complete streams came in it ("identity" for none). */
  static Map<String, Integer> counted(List<StreamResult> streams) {
    Map<String, Integer> out = new TreeMap<>();
    for (StreamResult s : streams)
      if (s.ok()) out.merge(s.coding() == null ? "identity" : s.coding().text(), 1, Integer::sum);
    return out;
  }

  /**
   * The coding most complete streams arrived in, or null when none was compressed (or none was
   * complete).
   */
  static ContentCoding dominant(List<StreamResult> streams) {
    Map<ContentCoding, Integer> n = new EnumMap<>(ContentCoding.class);
    int identity = 0;
    for (StreamResult s : streams) {
      if (!s.ok()) continue;
      if (s.coding() == null) identity++;
      else n.merge(s.coding(), 1, Integer::sum);
    }
    ContentCoding best = null;
    int most = identity;
    for (Map.Entry<ContentCoding, Integer> e : n.entrySet()) {
      if (e.getValue() > most) {
        best = e.getKey();
        most = e.getValue();
      }
    }
    return best;
  }
}
