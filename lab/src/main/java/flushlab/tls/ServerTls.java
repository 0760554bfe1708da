package flushlab.tls;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.util.List;

/** A lab server (emitter, relay) that listens with TLS, with this certificate. */
public record ServerTls(LabCertificate certificate) {
  /** The lab's own self-signed certificate. */
  public static ServerTls selfSigned() {
    return new ServerTls(LabCertificate.labMade());
  }

  /**
   * Turns TLS on in {@code options}: the JDK's engine, TLS 1.2 and 1.3, ALPN off (HTTP/1.1 only).
   * The handshake's heavy steps (signing, key agreement) run on Vert.x's worker pool, not on the
   * event loop that paces other streams: on the loop, each new connection's handshake held the
   * frames of the streams beside it for milliseconds.
   */
  public NetServerOptions applyTo(NetServerOptions options) {
    return options
        .setSsl(true)
        .setSslEngineOptions(new JdkSSLEngineOptions().setUseWorkerThread(true))
        .setKeyCertOptions(
            new PemKeyCertOptions()
                .setCertValue(
                    Buffer.buffer(LabCertificate.readPem("the certificate", certificate.certPem())))
                .setKeyValue(
                    Buffer.buffer(LabCertificate.readPem("the key", certificate.keyPem()))));
  }

  /**
   * As {@link #applyTo(NetServerOptions)}, offering HTTP/2 by ALPN ({@code h2}, then {@code
   * http/1.1}): for a server that speaks both (the emitter); a relay, which speaks HTTP/1.1 only,
   * keeps ALPN off.
   */
  public NetServerOptions applyToWithH2(NetServerOptions options) {
    applyTo(options).setUseAlpn(true);
    options.getSslOptions().setApplicationLayerProtocols(List.of("h2", "http/1.1"));
    return options;
  }

  /** What a client must trust to reach this server: the certificate itself. */
  public ClientTls pinnedByClients() {
    return ClientTls.pinned(certificate.certPem());
  }
}
