package flushlab.map;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A cell as a map printed it: its evidence line ({@link CellEvidence#describe}) read back, so that
 * a test's fixture is the line a map wrote, word for word, not numbers copied out of it. Only a
 * held cell's line (releases, waits, gaps, sizes) is read; the wire bytes a frame are as printed,
 * to the byte. A line from before the fewest and most frames a release were printed ("of 60 frames
 * (p50)") leaves them unknown (0).
 */
public final class EvidenceLine {
  private EvidenceLine() {}

  private static final String N = "([0-9.]+)";

  private static final Pattern HELD =
      Pattern.compile(
          "(frame_size=(\\d+)B interval=(\\d+)ms frames=(\\d+)): "
              + N
              + " frames/read; "
              + N
              + " releases per stream of "
              + N
              + " frames \\((?:p50|p10 "
              + N
              + ", p90 "
              + N
              + ")\\); the oldest frame waited "
              + N
              + " ms \\(p10 "
              + N
              + ", p90 "
              + N
              + "\\); "
              + N
              + " ms between releases \\(p10 "
              + N
              + ", p90 "
              + N
              + "\\); "
              + N
              + " B per frame on the wire, "
              + N
              + " B per release \\(p10 "
              + N
              + ", p90 "
              + N
              + "\\); the first frame waited "
              + N
              + " ms(?: \\((\\w+): compressed bytes as received\\))?");

  /** What a line says of frames the lab's emitter sent together, when it says anything. */
  private static final Pattern SENT_APART = Pattern.compile(" \\(" + N + " sent apart: [^)]*\\)");

  /** The cells of these evidence lines, in their order. */
  public static List<CellEvidence> parseAll(String... lines) {
    return Stream.of(lines).map(EvidenceLine::parse).toList();
  }

  public static CellEvidence parse(String line) {
    Matcher apart = SENT_APART.matcher(line);
    boolean sentTogether = apart.find();
    double sentApart = sentTogether ? d(apart, 1) : Double.NaN;
    Matcher m = HELD.matcher(sentTogether ? apart.replaceFirst("") : line);
    if (!m.matches())
      throw new IllegalArgumentException("not a held cell's evidence line: " + line);
    return CellEvidenceBuilder.builder()
        .label(m.group(1))
        .bodyBytes(d(m, 2))
        .intervalMs(d(m, 3))
        .framesPerStream(Integer.parseInt(m.group(4)))
        .streams(1)
        .framesPerRead(d(m, 5))
        .releasesPerStream(d(m, 6))
        .releaseFrames(d(m, 7))
        .waitP50(d(m, 10))
        .waitP10(d(m, 11))
        .waitP90(d(m, 12))
        .gapP50(d(m, 13))
        .gapP10(d(m, 14))
        .gapP90(d(m, 15))
        .frameBytes(d(m, 16))
        .releaseBytesP50(d(m, 17))
        .releaseBytesP10(d(m, 18))
        .releaseBytesP90(d(m, 19))
        .firstWaitMs(d(m, 20))
        .coding(m.group(21))
        .firstBodyMs(Double.NaN)
        .ttftMs(Double.NaN)
        .releaseFramesP10(m.group(8) == null ? 0 : d(m, 8))
        .releaseFramesP90(m.group(9) == null ? 0 : d(m, 9))
        .framesSentApartPerRead(sentTogether ? sentApart : d(m, 5))
        .build();
  }

  private static double d(Matcher m, int group) {
    return Double.parseDouble(m.group(group));
  }
}
