package flushlab.tls;

import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.PemKeyCertOptions;

/** A lab server (emitter, relay) that listens with TLS, with this certificate. */
public record ServerTls(LabCertificate certificate) {
  /** The lab's own self-signed certificate. */
  public static ServerTls selfSigned() {
    return new ServerTls(LabCertificate.labMade());
  }

  /** Turns TLS on in {@code options}: the JDK's engine, TLS 1.2 and 1.3, ALPN off (HTTP/1.1 only). */
  public NetServerOptions applyTo(NetServerOptions options) {
    return options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
        .setCertPath(certificate.certPem().toString())
        .setKeyPath(certificate.keyPem().toString()));
  }

  /** What a client must trust to reach this server: the certificate itself. */
  public ClientTls pinnedByClients() {
    return ClientTls.pinned(certificate.certPem());
  }
}
