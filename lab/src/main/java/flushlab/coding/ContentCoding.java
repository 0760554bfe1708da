package flushlab.coding;

import flushlab.core.Named;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The content codings a response body may arrive in (Content-Encoding), and which of them a request
 * accepted (Accept-Encoding). The client decodes what it asked for; a body in a coding it did not
 * ask for is an error of that stream, as a browser would fail to read it.
 */
public enum ContentCoding implements Named {
  GZIP,
  DEFLATE,
  BR,
  ZSTD;

  /**
   * The coding a Content-Encoding token names ({@code x-gzip} is gzip, as RFC 9110 allows), or
   * null.
   */
  public static ContentCoding named(String token) {
    String t = token == null ? "" : token.trim().toLowerCase(Locale.ROOT);
    return "x-gzip".equals(t) ? GZIP : Named.parse(ContentCoding.class, t);
  }

  /**
   * What an Accept-Encoding value accepts: each listed coding unless its q is 0, every coding for
   * {@code *}; nothing for a missing header (the body must then arrive as it is).
   */
  public static Set<ContentCoding> accepted(String acceptEncoding) {
    EnumSet<ContentCoding> out = EnumSet.noneOf(ContentCoding.class);
    if (acceptEncoding == null) return out;
    for (String item : acceptEncoding.split(",")) {
      String[] parts = item.split(";");
      String name = parts[0].trim().toLowerCase(Locale.ROOT);
      boolean refused = false;
      for (int i = 1; i < parts.length; i++) {
        String p = parts[i].trim().toLowerCase(Locale.ROOT).replace(" ", "");
        if (p.startsWith("q=")) {
          try {
            refused = Double.parseDouble(p.substring(2)) <= 0;
          } catch (NumberFormatException e) {
            refused = true; // a q the client cannot read accepts nothing
          }
        }
      }
      if (refused) continue;
      if (name.equals("*")) return EnumSet.allOf(ContentCoding.class);
      ContentCoding c = named(name);
      if (c != null) out.add(c);
    }
    return out;
  }
}
