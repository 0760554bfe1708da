package flushlab.cli;

import com.beust.jcommander.Parameter;
import flushlab.core.HostPort;
import flushlab.tcpprobe.ProbeSite;
import flushlab.tcpprobe.UploadServer;

/**
 * The upload endpoint's server-side settings, shared by the emitter and the probes that start their
 * own server.
 */
final class UploadFlags {
  @Parameter(
      names = {"--rcvbuf", "--upload-rcvbuf"},
      description =
          "SO_RCVBUF set on the upload listener before it listens "
              + "(accepted sockets inherit it), e.g. 16MiB; the kernel doubles it, up to net.core.rmem_max (default: the kernel's)",
      converter = Converters.Size.class)
  Converters.SizeArg rcvbuf;

  @Parameter(
      names = {"--read-delay", "--upload-read-delay"},
      description =
          "How long the upload server waits before its first "
              + "read of a connection, as a busy server does (default 0ms)",
      converter = Converters.Duration.class)
  Converters.DurationArg readDelay = Converters.DurationArg.of("0ms");

  UploadServer.Options options(HostPort at, boolean tcpNoDelay) {
    int bytes = rcvbuf == null ? 0 : Converters.range("--rcvbuf", rcvbuf.bytes(), 1024, 1L << 30);
    long delay = Converters.durationRange("--read-delay", readDelay, 0, 60_000_000_000L);
    return new UploadServer.Options(at, bytes, delay, tcpNoDelay);
  }

  boolean given() {
    return rcvbuf != null || readDelay.nanos() != 0;
  }

  /** These settings are the lab's own server's: refused where there is none. */
  void refuseWithout(String what) {
    if (given())
      throw new IllegalArgumentException(
          "--rcvbuf and --read-delay set the lab's own upload server: give them with " + what);
  }

  static String describe(UploadServer s) {
    return ProbeSite.describe(s);
  }
}
