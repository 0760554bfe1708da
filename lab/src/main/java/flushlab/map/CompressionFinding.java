package flushlab.map;

/**
 * What a target does with compression, from the map asking as two kinds of client: one that accepts
 * compression and one that does not. A target that compresses for the first holds (or streams) as
 * its encoder and flush policy say, which may differ from what it does to the same stream sent as
 * it is.
 *
 * @param coding the content coding the accepting client received, or null when the target never
 *     compressed
 * @param acceptingClient the profile (and Accept-Encoding) the accepting client sent
 * @param accepting the answer for clients that accept compression (null when not measured)
 * @param othersClient the profile that sent no Accept-Encoding
 * @param others the answer for clients that do not accept compression (null when not measured)
 * @param cause compression changes the answer: the two kinds of client see different mechanisms
 * @param verdict one line for a person
 */
public record CompressionFinding(
    String coding,
    String acceptingClient,
    FlushTrigger accepting,
    String othersClient,
    FlushTrigger others,
    boolean cause,
    String verdict) {

  /**
   * The target compressed, both kinds of client were answered, and the plain pass saw one stage
   * alone: what a compressor of its own, beside that stage, is fitted to.
   */
  public boolean besideOneStage() {
    return coding != null && accepting != null && others != null && others.then() == null;
  }

  /**
   * The two answers side by side; the coding the accepting client received; {@code
   * heldOnlyCompressed} names a stream both clients read that the accepting client got held and the
   * other streamed (null when there is none): the evidence that compression, not the stream, is the
   * cause.
   */
  public static CompressionFinding of(
      String coding,
      String acceptingClient,
      FlushTrigger accepting,
      String othersClient,
      FlushTrigger others,
      String heldOnlyCompressed) {
    if (coding == null) {
      String v =
          "no compression: the target answered a client that accepts it ("
              + acceptingClient
              + ") without a "
              + "Content-Encoding; "
              + (others != null ? others.verdict() : accepting.verdict());
      return new CompressionFinding(
          null, acceptingClient, accepting, othersClient, others, false, v);
    }
    boolean cause =
        heldOnlyCompressed != null
            || accepting != null && others != null && differ(accepting, others);
    String a = accepting == null ? "not measured (budget)" : accepting.verdict();
    String o = others == null ? "not measured (budget)" : others.verdict();
    boolean same =
        accepting != null
            && others != null
            && accepting.kind() == others.kind()
            && accepting.then() == others.then()
            && accepting.kind() != TriggerKind.INCONCLUSIVE;
    String v =
        (cause
                ? "compression is the cause"
                    + (heldOnlyCompressed != null ? " (" + heldOnlyCompressed + ")" : "")
                    + ": "
                : "compression ("
                    + coding
                    + ") seen"
                    + (same ? ", same mechanism either way: " : ": "))
            + "clients that accept "
            + coding
            + ": "
            + a
            + " — clients that do not: "
            + o;
    return new CompressionFinding(
        coding, acceptingClient, accepting, othersClient, others, cause, v);
  }

  /**
   * Different mechanisms (or a second stage for one client only), or the same one at a clearly
   * different value. An inconclusive answer says nothing to differ from: a pass this host stalled
   * through, beside one that streamed, once made compression "the cause" of a difference nobody
   * measured.
   */
  static boolean differ(FlushTrigger a, FlushTrigger b) {
    if (a.kind() == TriggerKind.INCONCLUSIVE || b.kind() == TriggerKind.INCONCLUSIVE) return false;
    // a second stage for one client only (a compressor flushing one write late) is a difference
    if (a.kind() != b.kind() || a.then() != b.then()) return true;
    return farApart(a.thresholdBodyBytes(), b.thresholdBodyBytes())
        || farApart(a.timerMs(), b.timerMs());
  }

  private static boolean farApart(Double x, Double y) {
    if (x == null || y == null) return false;
    return Math.abs(x - y) > 0.25 * Math.max(Math.abs(x), Math.abs(y));
  }
}
