package flushlab.scenario;

import static flushlab.scenario.Key.Section.ADAPTIVE;
import static flushlab.scenario.Key.Section.KEEPALIVE;
import static flushlab.scenario.Key.Section.SERVER;
import static flushlab.scenario.Key.Section.UPLOAD;

import flushlab.scenario.Key.Type;

/**
 * The keys of an {@code adaptive:} bisection and of probe scenarios ({@code upload:}, {@code
 * keepalive:}, {@code servers:}). Every key is listed in {@link Keys#ALL}, which gives the
 * reference its order.
 */
public final class ProbeKeys {
  private ProbeKeys() {}

  // ---- adaptive bisection
  public static final Key ADAPTIVE_TARGET =
      Key.of("target", ADAPTIVE, Type.STRUCTURED, null, "the target to bisect")
          .shape("a target name")
          .shownDefault("required");
  public static final Key PARAMETER =
      Key.of(
              "parameter",
              ADAPTIVE,
              Type.CHOICE,
              null,
              "the setting to bisect (all else as in the first cell)")
          .choices("frame_size", "interval")
          .shownDefault("required");
  public static final Key LOW =
      Key.of(
              "low",
              ADAPTIVE,
              Type.STRUCTURED,
              null,
              "a value at which the target coalesces (or streams)")
          .shape("a value of that setting")
          .shownDefault("required");
  public static final Key HIGH =
      Key.of("high", ADAPTIVE, Type.STRUCTURED, null, "a value at which it does the opposite")
          .shape("a value of that setting")
          .shownDefault("required");
  public static final Key TOLERANCE =
      Key.of("tolerance", ADAPTIVE, Type.FRACTION, "0.1", "stop when low and high are this close")
          .range(0, 1)
          .shownDefault("`10%`");
  public static final Key COALESCING_ABOVE =
      Key.of(
              "coalescing_above",
              ADAPTIVE,
              Type.DECIMAL,
              "1.5",
              "frames per read above this counts as coalescing")
          .range(1.01, 1000);
  public static final Key MAX_CELLS =
      Key.of("max_cells", ADAPTIVE, Type.INT, "12", "most cells the bisection may use")
          .range(2, 64);

  // ---- probe scenarios
  public static final Key SIZES =
      Key.of(
              "sizes",
              UPLOAD,
              Type.STRUCTURED,
              "[16KiB, 32KiB, 64KiB, 128KiB, 256KiB, 512KiB, 1MiB]",
              "body sizes to sweep; the smallest is the baseline a stall is measured against")
          .shape("a list of 2-64 sizes, 1 B..64 MiB");
  public static final Key ATTEMPTS =
      Key.of("attempts", UPLOAD, Type.INT, "3", "fresh connections per size; the median counts")
          .range(1, 50);
  public static final Key STALL_OVER =
      Key.of(
              "stall_over",
              UPLOAD,
              Type.DURATION,
              "20ms",
              "a size stalls when its median time to the response head is over the smallest size's by more than this")
          .range(1e6, 10e9);
  public static final Key BISECT_TOLERANCE =
      Key.of(
              "tolerance",
              UPLOAD,
              Type.FRACTION,
              "0.02",
              "bisect until the sizes either side of the jump are this close")
          .range(0.001, 0.5);
  public static final Key ATTEMPT_TIMEOUT =
      Key.of(
              "timeout",
              UPLOAD,
              Type.DURATION,
              "10s",
              "most one attempt may wait for the response head")
          .range(100e6, 120e9);
  public static final Key KA_REQUESTS =
      Key.of("requests", KEEPALIVE, Type.INT, "128", "request/response pairs on one connection")
          .range(1, 100_000);
  public static final Key KA_BODY =
      Key.of(
              "body",
              KEEPALIVE,
              Type.SIZE,
              "64B",
              "bytes of each request body, sent in a write of " + "its own after the head")
          .range(1, 1 << 20);
  public static final Key KA_CLIENT_NODELAY =
      Key.of(
              "client_nodelay",
              KEEPALIVE,
              Type.CHOICE,
              "both",
              "TCP_NODELAY on the probe's socket: `on`, `off`, or `both` (one connection each)")
          .choices("on", "off", "both");
  public static final Key KA_STALL_OVER =
      Key.of(
              "stall_over",
              KEEPALIVE,
              Type.DURATION,
              "20ms",
              "a request slower than the probe's fastest by more than this is a stall (a delayed ACK costs 40 ms or more)")
          .range(1e6, 10e9);
  public static final Key SERVER_NAME =
      Key.of("name", SERVER, Type.ROW_NAME, null, "unique; the row name in every table")
          .range(1, 48);
  public static final Key SERVER_RCVBUF =
      Key.of(
              "rcvbuf",
              SERVER,
              Type.SIZE,
              null,
              "SO_RCVBUF set on the listener before it listens (accepted sockets inherit it); the kernel doubles it, up to "
                  + "net.core.rmem_max, and the results record what it granted")
          .shownDefault("the kernel's")
          .range(1024, 1 << 30);
  public static final Key SERVER_READ_DELAY =
      Key.of(
              "read_delay",
              SERVER,
              Type.DURATION,
              "0ms",
              "how long the server waits before its first read of a connection, as a busy server does")
          .range(0, 60e9);
  public static final Key SERVER_NODELAY =
      Key.of(
          "nodelay",
          SERVER,
          Type.BOOL,
          "true",
          "TCP_NODELAY on the server's sockets "
              + "(its responses go out in two writes, head then body, so Nagle shows)");
  public static final Key SERVER_PATH =
      Key.of(
              "path",
              SERVER,
              Type.CHOICE,
              null,
              "this server's network path, when not the " + "scenario's")
          .shownDefault("the scenario's `path`")
          .choices("loopback", "veth");
  public static final Key SERVER_MTU =
      Key.of("mtu", SERVER, Type.INT, null, "this server's veth MTU, when not the scenario's")
          .shownDefault("the scenario's `mtu`")
          .range(576, 65535);
}
