package flushlab.map;

import flushlab.client.ClientProfile;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a refused replay says when its cells part two kinds of client: every cell it refused was
 * asked as one client (or over one protocol), every cell it reproduced as another, so the target
 * holds differently for the two, which no one relay does. Over TLS the map's compression probe asks
 * as a browser, which speaks HTTP/2 where the lab's own request speaks HTTP/1.1: stock nginx over
 * TLS held 16 KiB with the head for the one (likely its TLS buffer, ssl_buffer_size, 16k by
 * default) and 4 KiB for the other (2026-12-04).
 *
 * @param sentence what the verdict adds
 * @param tryNext what to measure next: the client to map on its own
 */
public record ClientsApart(String sentence, String tryNext) {

  /** Which client a cell was asked as, and whether the target answered it over HTTP/2. */
  public record AskedAs(ClientProfile profile, boolean h2) {
    String client() {
      return profile.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    String text() {
      return client() + " over " + (h2 ? "HTTP/2" : "HTTP/1.1");
    }
  }

  /**
   * From each compared cell's match and how it was asked (index by index, one of each per cell), or
   * null when they do not part two clients.
   */
  public static ClientsApart of(List<CellMatch> matches, List<AskedAs> asked) {
    if (matches.size() != asked.size())
      throw new IllegalArgumentException(
          matches.size() + " cell matches and " + asked.size() + " clients: one of each per cell");
    Set<AskedAs> differ = new LinkedHashSet<>();
    Set<AskedAs> agree = new LinkedHashSet<>();
    for (int i = 0; i < matches.size(); i++)
      (matches.get(i).difference() == null ? agree : differ).add(asked.get(i));
    if (differ.size() != 1 || agree.size() != 1 || differ.equals(agree)) return null;
    AskedAs d = differ.iterator().next();
    AskedAs a = agree.iterator().next();
    return new ClientsApart(
        "every cell that differs was asked as "
            + d.text()
            + ", every cell it reproduced as "
            + a.text()
            + ": the target holds differently for the two, which one relay does not",
        "map each client on its own: --client "
            + d.client()
            + (d.h2() != a.h2()
                ? " (which speaks " + (d.h2() ? "HTTP/2" : "HTTP/1.1") + " here)"
                : ""));
  }
}
