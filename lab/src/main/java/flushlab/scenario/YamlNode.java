package flushlab.scenario;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML document as a tree that remembers where every key and value stood, so a validation error
 * can name the line and column of the exact key. Built with Jackson's streaming YAML parser (a
 * data-binding target would report some errors at the end of the document).
 */
public final class YamlNode {
  public enum Kind {
    MAP,
    LIST,
    SCALAR,
    NULL
  }

  /**
   * The longest value a scenario needs (a description); a longer one is refused where it stands.
   */
  public static final int MAX_SCALAR_CHARS = 16 * 1024;

  public final Kind kind;
  public final String text;
  public final boolean quoted;
  public final int line;
  public final int column;
  public final Map<String, YamlNode> map;
  public final Map<String, int[]> keyPositions;
  public final List<YamlNode> list;

  private YamlNode(Kind kind, String text, boolean quoted, int line, int column) {
    this.kind = kind;
    this.text = text;
    this.quoted = quoted;
    this.line = line;
    this.column = column;
    this.map = kind == Kind.MAP ? new LinkedHashMap<>() : Map.of();
    this.keyPositions = kind == Kind.MAP ? new LinkedHashMap<>() : Map.of();
    this.list = kind == Kind.LIST ? new ArrayList<>() : List.of();
  }

  /** A map with nothing in it: an absent section reads as one, so its keys take their defaults. */
  static YamlNode emptyMap() {
    return new YamlNode(Kind.MAP, null, false, 1, 1);
  }

  /** A YAML syntax error, with where it happened. */
  public static final class SyntaxError extends Exception {
    private static final long serialVersionUID = 1L;
    public final int line;
    public final int column;

    SyntaxError(String message, int line, int column) {
      super(message);
      this.line = line;
      this.column = column;
    }
  }

  public static YamlNode parse(String text) throws SyntaxError {
    try (JsonParser p = new YAMLFactory().createParser(text)) {
      JsonToken t = p.nextToken();
      if (t == null) return new YamlNode(Kind.NULL, null, false, 1, 1);
      YamlNode root = read(p);
      if (p.nextToken() != null) {
        JsonLocation l = p.currentTokenLocation();
        throw new SyntaxError("more than one YAML document", l.getLineNr(), l.getColumnNr());
      }
      return root;
    } catch (JsonProcessingException e) {
      JsonLocation l = e.getLocation();
      String msg = e.getOriginalMessage();
      int nl = msg.indexOf('\n');
      throw new SyntaxError(
          "YAML syntax: " + (nl > 0 ? msg.substring(0, nl) : msg),
          l == null ? 1 : Math.max(1, l.getLineNr()),
          l == null ? 1 : Math.max(1, l.getColumnNr()));
    } catch (IOException e) {
      throw new SyntaxError("cannot read YAML: " + e.getMessage(), 1, 1);
    }
  }

  private static YamlNode read(JsonParser p) throws IOException {
    JsonLocation at = p.currentTokenLocation();
    int line = at.getLineNr();
    int col = at.getColumnNr();
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT:
        {
          YamlNode n = new YamlNode(Kind.MAP, null, false, line, col);
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonLocation kl = p.currentTokenLocation();
            if (key.length() > 256) {
              throw new JsonParseException(
                  p, "a key of " + key.length() + " characters (allowed: at most 256)", kl);
            }
            p.nextToken();
            YamlNode value = read(p);
            if (n.map.containsKey(key)) {
              throw new JsonParseException(p, "duplicate key '" + key + "'", kl);
            }
            n.map.put(key, value);
            n.keyPositions.put(key, new int[] {kl.getLineNr(), kl.getColumnNr()});
          }
          return n;
        }
      case START_ARRAY:
        {
          YamlNode n = new YamlNode(Kind.LIST, null, false, line, col);
          while (p.nextToken() != JsonToken.END_ARRAY) n.list.add(read(p));
          return n;
        }
      case VALUE_NULL:
        return new YamlNode(Kind.NULL, null, false, line, col);
      default:
        {
          String text = p.getText();
          if (text.length() > MAX_SCALAR_CHARS) {
            throw new JsonParseException(
                p,
                "a value of "
                    + text.length()
                    + " characters (allowed: at most "
                    + MAX_SCALAR_CHARS
                    + ")",
                at);
          }
          return new YamlNode(Kind.SCALAR, text, t == JsonToken.VALUE_STRING, line, col);
        }
    }
  }
}
