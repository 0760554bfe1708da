package flushlab.map;

import java.util.ArrayList;
import java.util.List;

/** A periodic timer P: a clock, not the arrivals, decides when held bytes leave. */
final class PeriodicTimerFit {

  /**
   * A periodic timer P: a clock, not the arrivals, decides. Releases come P apart in every cell
   * where several frames share one, whatever the interval, and the oldest frame waited what was
   * left of the period when it arrived: between P - min(I, P) and P. A hold timer T instead gives
   * every cell the same wait, and gaps that are whole intervals (T rounded up to a multiple of I),
   * which differ between intervals: cells at two intervals tell the two apart (when both fit, the
   * answer is inconclusive and the map measures more intervals). Frames that leave one by one at an
   * interval out of step with P meet the clock at a new phase each time, so their waits spread;
   * steady waits there rule the clock out. Streams are not compared with each other: a proxy may
   * start its clock with each connection, meeting every stream at one phase.
   */
  static Double fit(List<CellEvidence> cells, List<String> evidence) {
    List<Double> gaps = new ArrayList<>();
    for (CellEvidence c : cells) {
      if (c.streamed()) return null;
      // a release of more than 64 KiB takes milliseconds to write: its timing says little about the
      // clock
      if (c.held() && c.releaseFrames() >= 2 && c.gapP50() > 0 && !c.largeReleases()) {
        if (c.gapP90() - c.gapP10() > Math.max(2, 0.1 * c.gapP50()))
          return null; // a clock ticks regularly
        gaps.add(c.gapP50());
      }
    }
    if (gaps.isEmpty()) return null;
    double p = Fits.median(gaps);
    for (double g : gaps) if (Math.abs(g - p) > Math.max(2, 0.02 * p)) return null;
    // a large release reaches the client a few ms after the tick (its bytes take that long to
    // write)
    double slack = Math.max(6, 0.05 * p);
    boolean longInterval = false;
    for (CellEvidence c : cells) {
      if (c.drained()) {
        if (c.streamMs() >= p) return null;
        continue;
      }
      if (!c.held()) continue;
      // nor its waits: a 550 KB release on a busy host once reached the client 25 ms after its tick
      if (c.largeReleases()) continue;
      double window = Math.min(c.intervalMs(), p);
      // a tick this host ran late shows in the gaps as it does in the waits: a suite run of three
      // classes at once on 2026-12-03 read a 162 ms clock's 60 B cell with its first release 9 ms
      // late (waits p90 171.8 ms, gaps 161.0-165.9 ms), its six other releases on time
      double room = slack + (c.gapP90() - c.gapP10());
      if (c.waitP10() < p - window - room || c.waitP90() > p + room) return null;
      if (window >= 10) longInterval = true;
    }
    if (!longInterval) return null; // with short intervals only, a hold timer looks the same
    // frames that leave one by one, out of step with the clock, each meet it at another phase
    // (the phase moves by I mod P a frame), so their waits spread; a hold gives each the same
    for (CellEvidence c : cells) {
      if (!c.held() || c.releaseFrames() >= 2 || c.releasesPerStream() < 4) continue;
      double d = c.intervalMs() % p;
      double drift = Math.min(d, p - d);
      if (drift >= slack && c.waitP90() - c.waitP10() < drift / 2) return null;
    }
    evidence.add(
        String.format(
            "periodic-timer check: releases %.1f ms apart in every cell whatever the interval, the "
                + "oldest frame waiting what was left of the period",
            p));
    return p;
  }

  /** The answer for a clock of {@code period} ms. */
  static FlushTrigger answer(
      String target, double period, List<CellEvidence> measured, List<String> evidence) {
    return new FlushTrigger(
        target,
        TriggerKind.PERIODIC_TIMER,
        null,
        null,
        Fits.round1(period),
        null,
        String.format(
            "periodic timer: releases "
                + "every %.1f ms on its own clock, whenever the frames arrived (%s; a hold timer would release a whole number of "
                + "intervals after the first frame, and give every release the same wait)",
            period, Fits.across(measured)),
        evidence,
        List.of());
  }
}
