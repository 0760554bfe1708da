package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import flushlab.client.HeaderSpec;
import flushlab.core.HostPort;
import flushlab.core.IoErrors;
import flushlab.core.LabVertx;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.run.Warmup;
import flushlab.tcpprobe.UploadServer;
import flushlab.tls.ServerTls;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

@Parameters(
    commandNames = "emitter",
    commandDescription = "Run the paced SSE emitter on its own until interrupted")
final class EmitterCommand implements Command {
  @Parameter(
      names = "--listen",
      description = "host:port to listen on (a bare port means 127.0.0.1)")
  String listen = "127.0.0.1:8090";

  @Parameter(
      names = "--no-tcp-nodelay",
      description = "Leave Nagle on for the emitter's sockets (default: TCP_NODELAY on)")
  boolean noTcpNoDelay;

  @Parameter(
      names = "--sndbuf",
      description = "SO_SNDBUF of accepted sockets, e.g. 64KiB (default: kernel's)",
      converter = Converters.Size.class)
  Converters.SizeArg sndbuf;

  @Parameter(
      names = "--event-loops",
      description = "Event-loop threads, each accepting and pacing its share of the connections")
  int eventLoops = 2;

  @Parameter(
      names = "--max-connections",
      description = "Connections open at once; one more is answered 503 and closed")
  int maxConnections = EmitterOptions.DEFAULT_MAX_CONNECTIONS;

  @ParametersDelegate UploadFlags upload = new UploadFlags();

  @Parameter(
      names = "--upload-listen",
      description =
          "Also listen here for POST /upload, the TCP probes' endpoint (answers once "
              + "it has read the whole body; see --upload-rcvbuf, --upload-read-delay)")
  String uploadListen;

  @Parameter(
      names = "--upload-no-tcp-nodelay",
      description = "Leave Nagle on for the upload listener's sockets")
  boolean uploadNoTcpNoDelay;

  @Parameter(
      names = "--tls-listen",
      description =
          "Also listen with TLS here (host:port), serving the same routes: "
              + "to compare a stream with and without TLS")
  String tlsListen;

  @ParametersDelegate ServerTlsFlags tlsFlags = new ServerTlsFlags();

  @Parameter(
      names = "--api-key",
      description =
          "Answer /v1/* only to requests with 'Authorization: Bearer KEY' (else OpenAI's 401 "
              + "error), like a provider; ${VAR} reads the key from the environment")
  String apiKey;

  @Parameter(
      names = "--request-timeout",
      description = "Most a request may take from its first byte to its last (then 408)",
      converter = Converters.Duration.class)
  Converters.DurationArg requestTimeout = Converters.DurationArg.of("10s");

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    HostPort at = HostPort.parse("--listen", listen, true);
    Exposure.warnIfNotLoopback(err, "--listen", at, "the emitter");
    Converters.range("--event-loops", eventLoops, 1, 64);
    int sndbufBytes =
        sndbuf == null ? 0 : Converters.range("--sndbuf", sndbuf.bytes(), 1024, 64L << 20);
    Converters.range("--max-connections", maxConnections, 1, 100_000);
    long requestTimeoutNanos =
        Converters.durationRange(
            "--request-timeout", requestTimeout, 1_000_000L, 3_600_000_000_000L);
    EmitterOptions options =
        new EmitterOptions(at.host(), at.port(), !noTcpNoDelay, sndbufBytes)
            .withLimits(maxConnections, requestTimeoutNanos)
            .withListeners(
                eventLoops); // one listener per event loop: connections spread over all of them
    HostPort tlsAt = tlsListen == null ? null : HostPort.parse("--tls-listen", tlsListen, true);
    if (tlsAt != null) Exposure.warnIfNotLoopback(err, "--tls-listen", tlsAt, "the emitter");
    ServerTls tls = tlsFlags.tls(tlsAt != null, "--tls-listen");
    if (apiKey != null)
      options =
          options.withApiKey(
              HeaderSpec.parse("--api-key", "Authorization: " + apiKey)
                  .resolve("--api-key", System.getenv()));
    HostPort uploadAt =
        uploadListen == null ? null : HostPort.parse("--upload-listen", uploadListen, true);
    if (uploadAt != null)
      Exposure.warnIfNotLoopback(err, "--upload-listen", uploadAt, "the upload listener");
    else upload.refuseWithout("--upload-listen");
    UploadServer uploads = null;
    if (uploadAt != null) {
      try {
        uploads = UploadServer.start(upload.options(uploadAt, !uploadNoTcpNoDelay));
      } catch (IOException e) {
        err.println("flushlab emitter: cannot listen on " + uploadAt + ": " + IoErrors.describe(e));
        return EXIT_FAILED;
      }
      out.println(UploadFlags.describe(uploads));
    }
    Vertx vertx = LabVertx.create(eventLoops);
    Emitter emitter = new Emitter(options);
    if (!Servers.listen(vertx, emitter, "emitter", at, err, Warmup.Focus.EMITTER, tls != null))
      return EXIT_FAILED;
    out.println(
        "flushlab emitter listening on "
            + at.host()
            + ":"
            + emitter.port()
            + " (TCP_NODELAY "
            + (options.tcpNoDelay() ? "on" : "off")
            + ", native transport "
            + (vertx.isNativeTransportEnabled() ? "epoll" : "off")
            + ")");
    if (tlsAt != null) {
      int tlsPort;
      try {
        tlsPort = emitter.listenTls(tlsAt.host(), tlsAt.port(), tls).await(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        err.println("flushlab emitter: cannot listen with TLS on " + tlsAt + ": " + e.getMessage());
        vertx.close();
        return EXIT_FAILED;
      }
      out.println(
          "flushlab emitter listening with TLS on "
              + tlsAt.host()
              + ":"
              + tlsPort
              + " ("
              + ServerTlsFlags.describe(tls)
              + ")");
    }
    if (options.apiKey() != null)
      out.println("  /v1/* answers only requests with the API key (Authorization: Bearer ...)");
    out.println("  GET  /sse?frames=41&size=60&interval=50ms   plain frames");
    out.println(
        "  POST /v1/chat/completions                   OpenAI chunks (pi_tokens, pi_think_ms, pi_delay_ms)");
    out.println(
        "  POST /v1/responses                          OpenAI Responses API events (the same fields)");
    out.println("  GET  /emitter/streams/{id}                  pacing audit of a stream");
    return UntilInterrupted.await(vertx);
  }
}
