package flushlab.scenario;

import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.RequestPlan;
import flushlab.stream.StreamSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One cell of a sweep: the stream asked for, how the client reads it, the model a chat request
 * names, and which real client the request looks like (defaults, then the scenario's base values,
 * then this cell's swept values), all typed.
 *
 * @param swept the settings this cell's sweep set, in the sweep's order, as written (for labels)
 */
public record Cell(
    int index,
    List<Swept> swept,
    StreamSpec stream,
    ClientOptions client,
    String model,
    ClientProfile profile) {

  /** Every setting at its default. */
  public static final Cell DEFAULTS =
      new Cell(
          0,
          List.of(),
          StreamSpec.DEFAULT,
          ClientOptions.DEFAULT,
          RequestPlan.DEFAULT_MODEL,
          ClientProfile.DEFAULT);

  /** One swept setting's value in a cell, as the scenario wrote it. */
  public record Swept(Setting setting, String text) {}

  public Cell {
    swept = List.copyOf(swept);
  }

  public String label() {
    if (swept.isEmpty()) return "base";
    StringBuilder sb = new StringBuilder();
    for (Swept s : swept)
      sb.append(sb.length() == 0 ? "" : " ")
          .append(s.setting().key().name())
          .append('=')
          .append(s.text());
    return sb.toString();
  }

  /** The swept values by setting name, for results. */
  public Map<String, String> sweptByName() {
    Map<String, String> m = new LinkedHashMap<>();
    for (Swept s : swept) m.put(s.setting().key().name(), s.text());
    return m;
  }

  /** Every setting's value by name, as results record the base settings. */
  public Map<String, String> settingsByName() {
    Map<String, String> m = new LinkedHashMap<>();
    for (Setting s : Setting.values()) {
      String t = s.text(this);
      if (t != null) m.put(s.key().name(), t);
    }
    return m;
  }

  /** A tag safe for HdrHistogram logs and file names. */
  public String tag() {
    return "cell" + index;
  }

  /** Frames per stream (in bulk mode, as many frames of frame_size as total takes). */
  public int frames() {
    return stream.frameCount();
  }

  /**
   * A cell rebuilt from {@link #settingsByName()} (as another lab process sent it): the defaults
   * with each named setting checked by its key and applied.
   *
   * @throws IllegalArgumentException naming the setting that is unknown or whose value its key
   *     refuses
   */
  public static Cell fromSettings(Map<String, String> settings) {
    Cell c = DEFAULTS;
    for (Map.Entry<String, String> e : settings.entrySet()) {
      Setting s = Setting.named(e.getKey());
      if (s == null) throw new IllegalArgumentException("no setting is named '" + e.getKey() + "'");
      try {
        c = s.apply(c, s.key().check(e.getValue()));
      } catch (IllegalArgumentException x) {
        throw new IllegalArgumentException(s.key().path() + ": " + x.getMessage());
      }
    }
    return c;
  }

  /** This cell with {@code setting} swept to {@code text} (a value its key has checked). */
  public Cell with(Setting setting, String text) {
    List<Swept> s = new ArrayList<>(swept);
    int at = -1;
    for (int i = 0; i < s.size(); i++) if (s.get(i).setting() == setting) at = i;
    if (at >= 0) s.set(at, new Swept(setting, text));
    else s.add(new Swept(setting, text));
    Cell set = setting.apply(this, text);
    return new Cell(index, s, set.stream, set.client, set.model, set.profile);
  }

  // copies with one part changed (a record has no copy-with of its own)
  public Cell withStream(StreamSpec s) {
    return new Cell(index, swept, s, client, model, profile);
  }

  public Cell withClient(ClientOptions c) {
    return new Cell(index, swept, stream, c, model, profile);
  }

  public Cell withModel(String m) {
    return new Cell(index, swept, stream, client, m, profile);
  }

  public Cell withProfile(ClientProfile p) {
    return new Cell(index, swept, stream, client, model, p);
  }

  public Cell withIndex(int i) {
    return new Cell(i, swept, stream, client, model, profile);
  }

  /** Rough seconds one run of this cell takes (its batches of streams). */
  public double runSeconds() {
    double stream = stream().streamNanos() / 1e9;
    double batches = Math.ceil((double) client().requests() / client().concurrency());
    double slow =
        client().slowReaderPauseNanos()
            / 1e9
            * (stream().bulk() ? stream().totalBytes() / 65536.0 : 1);
    return (stream + slow + 0.05) * batches;
  }
}
