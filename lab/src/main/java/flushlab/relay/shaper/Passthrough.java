package flushlab.relay.shaper;

import java.util.List;

/** Forwards each read at once: the honest baseline a well-behaved streaming proxy should match. */
public final class Passthrough extends Shaper {

  public static final ShaperType TYPE =
      new ShaperType(
          "passthrough",
          false,
          "a proxy that streams: every read from upstream is written to the client at once",
          List.of(),
          "passthrough",
          p -> Passthrough::new);
}
