package flushlab.map;

import java.util.Locale;

/**
 * The stage clients that do not accept the coding saw alone, beside which a compressor of its own
 * is fitted: a hold ({@link TriggerKind#TIMER}), a clock, a threshold, the kernel's cork on the
 * client socket (always behind the compressor: it is the socket's) or one-late, its value as they
 * saw it ({@code plainValue}: ms, or bytes of event bodies; 0 for one-late) and on the wire ({@code
 * wireValue}).
 */
record PlainStage(TriggerKind kind, double plainValue, double wireValue) {

  boolean timer() {
    return kind == TriggerKind.TIMER;
  }

  boolean clock() {
    return kind == TriggerKind.PERIODIC_TIMER;
  }

  boolean threshold() {
    return kind == TriggerKind.BYTE_THRESHOLD;
  }

  boolean cork() {
    return kind == TriggerKind.CORK;
  }

  boolean oneLate() {
    return kind == TriggerKind.ONE_LATE;
  }

  /**
   * The stage beside which a compressor of its own is fitted, or null where the passes say
   * otherwise: the accepting pass unexplained (or read as an encoder or a threshold, whose model
   * comes first, or as a hold beside a clock, the cork or a shorter hold) and the plain one a hold,
   * a clock or a threshold alone.
   */
  static PlainStage of(FlushTrigger answer) {
    CompressionFinding f = answer.compression();
    if (f == null || !f.besideOneStage()) return null;
    FlushTrigger accepting = f.accepting();
    FlushTrigger others = f.others();
    // a threshold-or-timer reading with no model of its own is what a threshold in front of a
    // compressor on a timer shows (`byte-threshold=1401B -> compress=gzip,flush=timer,after=90ms`
    // was answered with no model: a chain bench, 2026-12-05)
    // (an accepting pass read as an encoder or a byte threshold has a model of its own, tried
    // first: MapSession tries these once its replay refused it)
    // a hold for the accepting clients beside a clock for the others is no one stage either: a
    // compressor's flushes beside the clock, whose waits at the phase the cells fell at read as a
    // hold of about the period (`compress=gzip,flush=timer,after=59ms ->
    // timer=150ms,periodic=true` was read so, and answered with the clock then a compressor on a
    // 149.9 ms timer, not replayed: a suite run, 2026-12-06)
    boolean clockHeldForThem =
        accepting.kind() == TriggerKind.TIMER && others.kind() == TriggerKind.PERIODIC_TIMER;
    // nor a hold for them beside the cork for the others: a compressor's timer and the ceiling
    // together (`compress=gzip,flush=timer,after=177ms -> cork` read as a hold of 389 ms, whose
    // model beside the cork held the shortest streams to their end; 165 and 186 ms alike, while 150
    // and 196 were read otherwise and answered: `flushlab map`, 2026-12-07)
    boolean corkHeldForThem =
        accepting.kind() == TriggerKind.TIMER && others.kind() == TriggerKind.CORK;
    // nor a hold for them longer than the hold for the others: a compressor's timer beside that
    // hold, each release waiting both (`compress=gzip,flush=timer,after=80ms -> timer=200ms` was
    // read as a hold of 280 ms beside one of 200, and its model, a 280 ms compressor behind the
    // hold, refused with no other candidate: `flushlab map --client browser`, 2026-12-08)
    boolean longerHeldForThem =
        accepting.kind() == TriggerKind.TIMER
            && others.kind() == TriggerKind.TIMER
            && accepting.timerMs() != null
            && others.timerMs() != null
            && accepting.timerMs() > others.timerMs() * CompressorFlushFit.LOOSE;
    boolean unmodelled =
        clockHeldForThem
            || corkHeldForThem
            || longerHeldForThem
            || accepting.kind() == TriggerKind.INCONCLUSIVE
            || accepting.kind() == TriggerKind.ENCODER
            || accepting.kind() == TriggerKind.BYTE_THRESHOLD
            || accepting.kind() == TriggerKind.THRESHOLD_OR_TIMER
                && ShaperModel.of(answer).chain() == null;
    boolean timer = others.kind() == TriggerKind.TIMER && others.timerMs() != null;
    boolean clock = others.kind() == TriggerKind.PERIODIC_TIMER && others.timerMs() != null;
    boolean threshold =
        others.kind() == TriggerKind.BYTE_THRESHOLD && others.thresholdBodyBytes() != null;
    // the cork behind a compressor: its ceiling counts from the compressor's first write, so every
    // accepting release waits the compressor's flush and the ceiling (`compress=gzip,flush=timer,
    // after=82ms -> cork`: 293 ms, answered with no model, and `...flush=bytes,bytes=778B -> cork`,
    // a chain bench, 2026-12-06)
    boolean cork = others.kind() == TriggerKind.CORK;
    // one-late in front of a compressor on a timer: each write reaches the compressor an interval
    // late, and its timer counts from then (`one-late -> compress=gzip,flush=timer,after=49ms`: 25
    // frames of 2 ms a release, the oldest waiting 51.3 ms, one of 50 ms waiting 99.4; answered
    // with no candidate of that kind, a chain bench, 2026-12-06)
    boolean oneLate = others.kind() == TriggerKind.ONE_LATE;
    if (!unmodelled || !(timer || clock || threshold || cork || oneLate)) return null;
    // a threshold counts the plain stream's bytes on the wire (in front of the compressor as the
    // relay read them, behind it as it passes them to clients that do not accept the coding):
    // its wire value; the body bytes it makes at the cells' small events are for the answer's text
    double plainValue =
        threshold
            ? others.thresholdBodyBytes()
            : cork ? CorkAfterFit.CEILING_MS : oneLate ? 0 : others.timerMs();
    double wireValue =
        threshold && others.thresholdBytes() != null ? others.thresholdBytes() : plainValue;
    return new PlainStage(others.kind(), plainValue, wireValue);
  }

  /**
   * The stage as an answer names it beside a compressor: on the wire ({@code wire} bytes, where the
   * compressor comes first and the threshold counts what it sends) or in event bodies.
   */
  String described(boolean compressorFirst, double wire) {
    if (cork()) return "the kernel's cork on the client socket";
    if (oneLate()) return "one-late (each write held until the next)";
    if (threshold())
      return compressorFirst
          ? String.format(Locale.ROOT, "a threshold of %.0f B on the wire", wire)
          : String.format(
              Locale.ROOT,
              "a threshold of %.0f B of the stream as it came (~%.0f B of event bodies)",
              wire,
              plainValue);
    return String.format(Locale.ROOT, "a %s of %.1f ms", clock() ? "clock" : "hold", plainValue);
  }
}
