package flushlab.relay.shaper;

/** Delaying faults: the stream arrives whole, late in the way each fault says. */
abstract class DelayFaultTest extends ShaperTestBase {
  static final double INTERVAL_MS = 10;
  static final String SHORT = "frames=20&size=60&interval=10ms";
}
