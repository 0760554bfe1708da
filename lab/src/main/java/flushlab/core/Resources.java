package flushlab.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Text files the jar carries: the pages' scripts and styles, the console's page, ECharts from its
 * WebJar.
 */
public final class Resources {
  private Resources() {}

  /** ECharts, from its WebJar (inlined into every page: no network). */
  public static final String ECHARTS =
      "META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js";

  /** A text file from the jar; one that is missing is a broken build, said as such. */
  public static String text(String path) {
    try (InputStream in = Resources.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) throw new IllegalStateException("missing from the jar: " + path);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
